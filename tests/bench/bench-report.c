/* bench-report.c: the benchmark's two tables and its JSON
 *
 * The first table lists every figure as it was measured; the second, at
 * the end, every target of issues 11 and 13 in the issues' order with its measured
 * ratio and met / MISSED, or why it could not be measured. Everything also
 * goes to one JSON object ("targets" holds the second table).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#include <stdarg.h>

/* The figures {{{ */

typedef struct {
  char *name;
  char *value;
} Row;

static GPtrArray *rows;
static JsonObject *root;

static void
row_free (Row *row)
{
  g_free (row->name);
  g_free (row->value);
  g_free (row);
}

void
add_row (const char *name,
         const char *format,
         ...)
{
  Row *row = g_new0 (Row, 1);
  va_list args;

  va_start (args, format);
  row->value = g_strdup_vprintf (format, args);
  va_end (args);
  row->name = g_strdup (name);
  g_ptr_array_add (rows, row);
}

JsonObject *
section (const char *name)
{
  if (!json_object_has_member (root, name))
    json_object_set_object_member (root, name, json_object_new ());
  return json_object_get_object_member (root, name);
}

JsonObject *
report_root (void)
{
  return root;
}

void
print_table (void)
{
  g_print ("\n%-56s %s\n", "measurement", "value");
  g_print ("%-56s %s\n", "--------------------------------------------------------",
           "------------------------------");
  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = g_ptr_array_index (rows, i);

      g_print ("%-56s %s\n", row->name, row->value);
    }
}

/* }}} */
/* The targets of issue 11 {{{ */

typedef enum {
  NOT_RUN,
  MEASURED,
  UNMEASURED,
} TargetState;

typedef struct {
  const char  *id;
  const char  *what;
  const char  *target;
  TargetState  state;
  double       value;
  char        *value_text;
  gboolean     met;
  char        *why;
} Target;

static Target targets[] = {
  { "engine-vs-asyncio", "engine throughput / asyncio reference", ">= 10x" },
  { "engine-vs-uvloop", "engine throughput / asyncio on uvloop", ">= 7x" },
  { "cli-vs-asyncio", "sluice-run / asyncio reference, whole processes", ">= 6x" },
  { "engine-vs-go", "engine per-item time / Go peer", "<= 1.5x" },
  { "dispatches", "engine per item / one bare main-loop dispatch", "<= 4" },
  { "scaling-engine-virtual", "engine ok 1.0 virtual: per item 100,000 / 10 in flight", "<= 1.5x" },
  { "scaling-engine-hang", "engine hang+timeout real: per item 100,000 / 10", "<= 1.5x" },
  { "scaling-cli-virtual", "sluice-run ok 1.0 virtual: per item 100,000 / 10", "<= 1.5x" },
  { "scaling-cli-hang", "sluice-run hang+timeout real: per item 100,000 / 10", "<= 1.5x" },
  { "memory-per-attempt", "engine memory per in-flight attempt (bytes)", "<= 1024" },
  { "cli-memory-growth", "sluice-run peak RSS, 1M items / 100k items", "<= 1.2x" },
  { "lateness-p99", "timer lateness p99, 1,000 timeouts, real clock", "<= 2 ms" },
  { "app-fps", "app, 50k ok 0 under Xvfb: frames per second in the run", ">= 30" },
  { "app-run-vs-headless", "app, 50k ok 0: run / sluice-run --clock virtual", "<= 1.2x" },
  { "app-catch-up", "app, 50k ok 0: window caught up after the run's end", "<= 0.5 s" },
  /* Issue 13: scrubbing a recorded run. */
  { "scrub-fold-drag", "scrub: fold, 1% drags: per event moved, 100k / 1k run", "<= 2x" },
  { "scrub-fold-jump", "scrub: fold, random jumps: per event moved, 100k / 1k", "<= 2x" },
  { "scrub-narrate", "scrub: narration, random t as items flow, 100k / 1k", "<= 2x" },
  { "app-scrub-p95", "app, scrubbing 100k events under Xvfb: p95 frame time", "<= 33 ms" },
  { "monitor-idle", "exported on D-Bus, no monitor: throughput / export off", ">= 0.97" },
  { "monitor-watched", "exported, one monitor subscribed: throughput / export off", ">= 0.85" },
  /* Issue 24, item 7: a 50k-item run in the window at full speed. */
  { "window-fps-cairo", "window, 50k at full speed, cairo: frames per second", ">= 30" },
  { "window-gap-cairo", "window, cairo: longest gap between two frames", "<= 100 ms" },
  { "window-vs-headless-cairo", "window, cairo: run / sluice-run --clock virtual", "<= 1.5x" },
  { "window-fps-default", "window, 50k at full speed, default renderer: frames per second", ">= 30" },
  { "window-gap-default", "window, default renderer: longest gap between two frames", "<= 100 ms" },
  { "window-vs-headless-default", "window, default renderer: run / sluice-run --clock virtual", "<= 1.5x" },
  /* GL forced (GSK_RENDERER=gl): on Xvfb's llvmpipe the app would not
   * choose it (sluice-renderer.c); measured for the record. */
  { "window-fps-gl", "window, 50k at full speed, GL forced: frames per second", ">= 30" },
  { "window-gap-gl", "window, GL forced: longest gap between two frames", "<= 100 ms" },
  { "window-vs-headless-gl", "window, GL forced: run / sluice-run --clock virtual", "<= 1.5x" },
};

static Target *
lookup_target (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    if (g_str_equal (targets[i].id, id))
      return &targets[i];
  g_error ("no target %s", id);
}

void
target_measured (const char *id,
                 double      value,
                 gboolean    met,
                 const char *text_format,
                 ...)
{
  Target *t = lookup_target (id);
  va_list args;

  va_start (args, text_format);
  g_free (t->value_text);
  t->value_text = g_strdup_vprintf (text_format, args);
  va_end (args);
  t->state = MEASURED;
  t->value = value;
  t->met = met;
}

void
target_unmeasured (const char *id,
                   const char *why_format,
                   ...)
{
  Target *t = lookup_target (id);
  va_list args;

  va_start (args, why_format);
  g_free (t->why);
  t->why = g_strdup_vprintf (why_format, args);
  va_end (args);
  t->state = UNMEASURED;
}

static JsonObject *
target_json (const Target *t)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "id", t->id);
  json_object_set_string_member (o, "what", t->what);
  json_object_set_string_member (o, "target", t->target);
  if (t->state == MEASURED)
    {
      json_object_set_double_member (o, "value", t->value);
      json_object_set_string_member (o, "measured", t->value_text);
      json_object_set_string_member (o, "status", t->met ? "met" : "missed");
    }
  else
    {
      json_object_set_string_member (o, "status", "not measurable");
      json_object_set_string_member (o, "why", t->why);
    }
  return o;
}

void
print_targets (void)
{
  JsonArray *array = json_array_new ();

  g_print ("\n%-58s %-9s %-11s %s\n", "target (issues 11, 13, 14, 24)", "target", "measured", "");
  g_print ("%-58s %-9s %-11s %s\n",
           "----------------------------------------------------------", "---------",
           "-----------", "------");
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      const Target *t = &targets[i];

      if (t->state == NOT_RUN)
        continue;
      if (t->state == MEASURED)
        g_print ("%-58s %-9s %-11s %s\n", t->what, t->target, t->value_text, t->met ? "met" : "MISSED");
      else
        g_print ("%-58s %-9s %-11s not measurable: %s\n", t->what, t->target, "-", t->why);
      json_array_add_object_element (array, target_json (t));
    }
  json_object_set_array_member (root, "targets", array);
}

/* }}} */
/* Life cycle and output {{{ */

void
report_init (void)
{
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  root = json_object_new ();
}

void
report_free (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_clear_pointer (&targets[i].value_text, g_free);
      g_clear_pointer (&targets[i].why, g_free);
    }
  g_ptr_array_unref (rows);
  json_object_unref (root);
}

void
write_json (const char *path)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  json_node_set_object (node, root);
  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  g_mkdir_with_parents (dir, 0755);
  if (!json_generator_to_file (gen, path, &error))
    g_error ("cannot write %s: %s", path, error->message);
  g_print ("\nwrote %s\n", path);
}

void
print_object (JsonObject *obj)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, obj);
  text = json_to_string (node, FALSE);
  g_print ("%s\n", text);
}

/* }}} */
