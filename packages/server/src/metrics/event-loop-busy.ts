import { performance } from "node:perf_hooks";
import { Counter, type Registry } from "prom-client";

/**
 * The event loop's busy time, as a counter: `rate()` of it is the share of the wall clock the
 * loop spent running callbacks (Node's event-loop utilization). A process whose rate nears 1
 * cannot answer faster, whatever its CPU shows (a thread descheduled mid-callback counts as busy):
 * run another process. prom-client's default metrics report the loop's delay, not this.
 */
export function eventLoopBusyCounter(registry: Registry): void {
  new Counter({
    name: "purse_nodejs_eventloop_busy_seconds_total",
    help: "Seconds the event loop spent running callbacks (rate() is its utilization)",
    registers: [registry],
    collect() {
      // Node keeps the running total since the process started: the counter shows it as it is.
      this.reset();
      this.inc(performance.eventLoopUtilization().active / 1000);
    },
  });
}
