/** Whether the controller is alive: the watchdog over reconcile passes and Git checks that {@code /healthz} reads. */
package io.gitfn.health;
