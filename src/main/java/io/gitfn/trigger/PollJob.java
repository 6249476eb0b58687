package io.gitfn.trigger;

import org.quartz.Job;
import org.quartz.JobExecutionContext;

/**
 * Quartz's side of a mirror's schedule: it only asks the mirror's {@link MirrorChecks} for a check, which
 * runs on the watcher's own threads and coalesces with webhook and manual requests.
 */
public final class PollJob implements Job {

  static final String POLL = "poll";

  @Override
  public void execute(JobExecutionContext context) {
    ((MirrorChecks) context.getMergedJobDataMap().get(POLL)).request("interval");
  }
}
