/* bench-memory.c: the engine's peak RSS, each figure in a child process of its own
 *
 *   mem-inflight  N attempts in flight at once (`ok 1.0`, virtual clock):
 *                 bytes per in-flight attempt (target <= 1 KiB at 100,000)
 *   mem-items     N items through a queue of 16 (`ok 0`, real clock): peak
 *                 RSS must not grow with the item count
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#define IN_FLIGHT 100000

/* Children {{{ */

JsonObject *
child_mem_inflight (gint64 in_flight)
{
  Scenario sc = {
    .clock_kind = SLUICE_CLOCK_VIRTUAL, .doing = DO_OK, .delay = 1.0, .workers = in_flight,
    .queue_size = 256, .item_timeout = 10.0, .items = in_flight,
  };
  Outcome out = run_scenario (&sc);
  JsonObject *obj = json_object_new ();

  json_object_set_int_member (obj, "in_flight", out.max_concurrent);
  json_object_set_int_member (obj, "hwm_before", out.hwm_before);
  json_object_set_int_member (obj, "hwm_after", out.hwm_after);
  json_object_set_double_member (obj, "bytes_per_attempt",
                                 (double) (out.hwm_after - out.hwm_before) / MAX (1u, out.max_concurrent));
  return obj;
}

/* `ok 1.0` on the virtual clock with @workers attempts in flight, @items
 * items: the scale case of issue 29, run under cachegrind by
 * side_by_side.py (instructions and cache misses per item at 10 and at
 * 100,000 in flight). */
JsonObject *
child_in_flight (gint64 workers,
                 gint64 items)
{
  Scenario sc = {
    .clock_kind = SLUICE_CLOCK_VIRTUAL, .doing = DO_OK, .delay = 1.0, .workers = workers,
    .queue_size = 256, .item_timeout = 10.0, .items = items,
  };
  Outcome out = run_scenario (&sc);
  JsonObject *obj = json_object_new ();

  json_object_set_int_member (obj, "workers", workers);
  json_object_set_int_member (obj, "items", items);
  json_object_set_int_member (obj, "in_flight", out.max_concurrent);
  json_object_set_int_member (obj, "results", out.results);
  json_object_set_double_member (obj, "cpu_seconds", out.cpu);
  return obj;
}

JsonObject *
child_mem_items (gint64 items,
                 gint   queue_size)
{
  Outcome out = throughput_run (items, queue_size);
  JsonObject *obj = json_object_new ();

  json_object_set_int_member (obj, "items", items);
  json_object_set_int_member (obj, "hwm_before", out.hwm_before);
  json_object_set_int_member (obj, "hwm_after", out.hwm_after);
  json_object_set_double_member (obj, "seconds", out.wall);
  json_object_set_double_member (obj, "turns_per_item", (double) out.turns / items);
  return obj;
}

/* }}} */
/* The measurement {{{ */

static void
memory_in_flight (JsonObject *obj)
{
  g_autoptr(JsonObject) inflight = run_self ("mem-inflight", IN_FLIGHT);
  double per_attempt = json_object_get_double_member (inflight, "bytes_per_attempt");
  gint64 in_flight = json_object_get_int_member (inflight, "in_flight");

  json_object_set_object_member (obj, "in_flight_100000", json_object_ref (inflight));
  add_row ("engine memory: 100,000 in flight, peak RSS (KiB)", "%" G_GINT64_FORMAT,
           json_object_get_int_member (inflight, "hwm_after") / 1024);
  add_row ("  bytes per in-flight attempt", "%.0f", per_attempt);
  if (in_flight < IN_FLIGHT)
    target_unmeasured ("memory-per-attempt", "only %" G_GINT64_FORMAT " attempts in flight", in_flight);
  else
    target_measured ("memory-per-attempt", per_attempt, per_attempt <= 1024.0, "%.0f B", per_attempt);
}

static void
memory_items (JsonObject *obj)
{
  gint64 small_n = bench_opt.quick ? 20000 : 100000;
  gint64 big_n = small_n * 10;
  g_autoptr(JsonObject) small = run_self ("mem-items", small_n);
  g_autoptr(JsonObject) big = run_self ("mem-items", big_n);
  gint64 small_hwm = json_object_get_int_member (small, "hwm_after");
  gint64 big_hwm = json_object_get_int_member (big, "hwm_after");
  double growth = (double) big_hwm / (double) small_hwm;

  json_object_set_object_member (obj, "items_small", json_object_ref (small));
  json_object_set_object_member (obj, "items_big", json_object_ref (big));
  json_object_set_double_member (obj, "peak_growth", growth);
  add_row ("engine memory: queue 16, peak RSS (KiB) @ items", "%" G_GINT64_FORMAT " @ %" G_GINT64_FORMAT,
           small_hwm / 1024, small_n);
  add_row ("", "%" G_GINT64_FORMAT " @ %" G_GINT64_FORMAT, big_hwm / 1024, big_n);
  add_row ("  peak growth, 10x the items", "%.3fx", growth);
}

void
bench_memory (void)
{
  JsonObject *obj = section ("memory");

  memory_in_flight (obj);
  memory_items (obj);
}

/* }}} */
