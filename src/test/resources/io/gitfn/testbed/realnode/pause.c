/* The real node's pause image: the process that holds each Pod's namespaces. It sleeps until TERM or INT
 * and reaps the zombies that may be re-parented to it as the Pod's PID 1. */
#include <signal.h>
#include <stddef.h>
#include <sys/wait.h>
#include <unistd.h>

static void stop(int signal) { _exit(0); }

static void reap(int signal) {
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  signal(SIGINT, stop);
  signal(SIGTERM, stop);
  signal(SIGCHLD, reap);
  for (;;) {
    pause();
  }
}
