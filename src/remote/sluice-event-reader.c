/* sluice-event-reader.c: one event back from the JSON object that
 * sluice_recorder_event_to_line() wrote for it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-event-reader-private.h"

#include <glib/gi18n-lib.h>
#include <stddef.h>
#include <string.h>

#include "sluice-scenario.h"

/* The reader is the writer (sluice-recorder.c, write_event()) backwards:
 * one row per key it writes, so that a key added there is one line here.
 * A key the writer leaves out when it does not apply takes the value that
 * makes the writer leave it out again (item -1, attempt 0, …): read back
 * and written again, an event gives the same bytes. */
typedef enum {
  FIELD_KIND,      /* SluiceEventKind, by its name */
  FIELD_OUTCOME,   /* SluiceOutcome, by its name */
  FIELD_INT64,     /* gint64 */
  FIELD_INT,       /* gint */
  FIELD_UINT,      /* guint */
  FIELD_BOOLEAN,   /* gboolean */
  FIELD_STRING,    /* const char *, borrowed from the JSON object */
  FIELD_VALUE,     /* GVariant *: an integer is an int64, a string a string */
  FIELD_DERIVED,   /* written from another field (time from time_us): checked, not stored */
} FieldType;

typedef struct {
  const char *name;
  FieldType   type;
  gsize       offset;
  gint64      min;       /* the range a number may take */
  gint64      max;
  gint64      absent;    /* the value when the key is not there */
  gboolean    required;
} Field;

#define AT(member) offsetof (SluiceEvent, member)

static const Field fields[] = {
  { "kind",          FIELD_KIND,    AT (kind),          0, 0,          0, TRUE },
  { "time_us",       FIELD_INT64,   AT (time),          G_MININT64, G_MAXINT64, 0, TRUE },
  { "time",          FIELD_DERIVED, 0,                  0, 0,          0, FALSE },
  { "item",          FIELD_INT64,   AT (item),          0, G_MAXINT64, -1, FALSE },
  { "attempt",       FIELD_UINT,    AT (attempt),       1, G_MAXUINT,  0, FALSE },
  { "worker",        FIELD_INT,     AT (worker),        0, G_MAXINT,   -1, FALSE },
  { "round",         FIELD_UINT,    AT (round),         1, G_MAXUINT,  0, FALSE },
  { "outcome",       FIELD_OUTCOME, AT (outcome),       0, 0,          SLUICE_OUTCOME_NONE, FALSE },
  { "retried",       FIELD_BOOLEAN, AT (retried),       0, 1,          FALSE, FALSE },
  { "error_type",    FIELD_STRING,  AT (error_type),    0, 0,          0, FALSE },
  { "error_message", FIELD_STRING,  AT (error_message), 0, 0,          0, FALSE },
  { "value",         FIELD_VALUE,   AT (value),         0, 0,          0, FALSE },
  { "delay_us",      FIELD_INT64,   AT (delay),         0, G_MAXINT64, -1, FALSE },
  { "reason",        FIELD_STRING,  AT (reason),        0, 0,          0, FALSE },
  { "tokens",        FIELD_INT64,   AT (tokens),        0, G_MAXINT64, -1, FALSE },
  { "deadline_us",   FIELD_INT64,   AT (deadline),      0, G_MAXINT64, -1, FALSE },
  { "deadline",      FIELD_DERIVED, 0,                  0, 0,          0, FALSE },
  { "queue_capacity", FIELD_UINT,   AT (queue_capacity), 0, G_MAXUINT, 0, FALSE },
  { "lead_bound",    FIELD_UINT,    AT (lead_bound),    0, G_MAXUINT,  0, FALSE },
  { "item_timeout_us", FIELD_INT64, AT (item_timeout),  0, G_MAXINT64, -1, FALSE },
  { "queued",        FIELD_UINT,    AT (queued),        0, G_MAXUINT,  0, FALSE },
  { "in_flight",     FIELD_UINT,    AT (in_flight),     0, G_MAXUINT,  0, FALSE },
  { "pulled",        FIELD_UINT,    AT (pulled),        0, G_MAXUINT,  0, FALSE },
  { "succeeded",     FIELD_UINT,    AT (succeeded),     0, G_MAXUINT,  0, FALSE },
  { "failed",        FIELD_UINT,    AT (failed),        0, G_MAXUINT,  0, FALSE },
  { "retries",       FIELD_UINT,    AT (retries),       0, G_MAXUINT,  0, FALSE },
  { "lead",          FIELD_UINT,    AT (lead),          0, G_MAXUINT,  0, FALSE },
};

#undef AT

static void
set_invalid (GError    **error,
             const char *key,
             const char *expected)
{
  g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
               /* Translators: %s is a key of an event line, such as “item”, then what it takes,
                * such as “an integer from 0 to 4294967295”. */
               _("“%s”: expected %s"), key, expected);
}

static void
set_not_a_number (GError     **error,
                  const Field *field)
{
  g_autofree char *expected = NULL;
  g_autofree char *min = g_strdup_printf ("%" G_GINT64_FORMAT, field->min);
  g_autofree char *max = g_strdup_printf ("%" G_GINT64_FORMAT, field->max);

  if (field->min == G_MININT64)
    expected = g_strdup (_("an integer"));
  else
    /* Translators: what an event's key takes; the two %s are its range, such as 0 and
     * 4294967295. */
    expected = g_strdup_printf (_("an integer from %s to %s"), min, max);

  set_invalid (error, field->name, expected);
}

static void
store_number (const Field *field,
              SluiceEvent *event,
              gint64       value)
{
  gpointer at = (char *) event + field->offset;

  switch (field->type)
    {
    case FIELD_KIND:
      *(SluiceEventKind *) at = (SluiceEventKind) value;
      break;
    case FIELD_OUTCOME:
      *(SluiceOutcome *) at = (SluiceOutcome) value;
      break;
    case FIELD_INT64:
      *(gint64 *) at = value;
      break;
    case FIELD_INT:
      *(gint *) at = (gint) value;
      break;
    case FIELD_UINT:
      *(guint *) at = (guint) value;
      break;
    case FIELD_BOOLEAN:
      *(gboolean *) at = value != 0;
      break;
    case FIELD_STRING:
    case FIELD_VALUE:
    case FIELD_DERIVED:
      break;
    }
}

static gboolean
is_value_of_type (JsonNode *node,
                  GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

/* A kind or an outcome by its name. */
static gboolean
read_name (const Field  *field,
           JsonNode     *node,
           SluiceEvent  *event,
           GError      **error)
{
  const char *name = is_value_of_type (node, G_TYPE_STRING) ? json_node_get_string (node) : NULL;
  SluiceEventKind kind;
  SluiceOutcome outcome;

  if (field->type == FIELD_KIND && name != NULL && sluice_event_kind_from_string (name, &kind))
    store_number (field, event, kind);
  else if (field->type == FIELD_OUTCOME && name != NULL && sluice_outcome_from_string (name, &outcome))
    store_number (field, event, outcome);
  else if (field->type == FIELD_KIND)
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: %s is the kind as written; keep the names after “expected”. */
                   _("unknown event kind “%s”; expected run-start, pull, attempt-start, "
                     "attempt-end, item-ok, run-end or another kind of the event log"),
                   name != NULL ? name : "");
      return FALSE;
    }
  else
    {
      set_invalid (error, field->name,
                   /* Translators: keep the names: they are the outcomes of the event log. */
                   _("ok, failed, timed-out, cancelled or none"));
      return FALSE;
    }
  return TRUE;
}

/* The item, result or late value: the writer writes an int64 as a number
 * and a string as itself, the only values a scenario's items and results
 * take (docs/scenario-format.md: integers and strings). */
static gboolean
read_value (const Field  *field,
            JsonNode     *node,
            SluiceEvent  *event,
            GError      **error)
{
  GVariant *value;

  if (is_value_of_type (node, G_TYPE_INT64))
    value = g_variant_new_int64 (json_node_get_int (node));
  else if (is_value_of_type (node, G_TYPE_STRING))
    value = g_variant_new_string (json_node_get_string (node));
  else
    {
      set_invalid (error, field->name, _("an integer or a string"));
      return FALSE;
    }

  *(GVariant **) ((char *) event + field->offset) = g_variant_ref_sink (value);
  return TRUE;
}

static gboolean
read_field (const Field  *field,
            JsonNode     *node,
            SluiceEvent  *event,
            GError      **error)
{
  gint64 number;

  switch (field->type)
    {
    case FIELD_KIND:
    case FIELD_OUTCOME:
      return read_name (field, node, event, error);

    case FIELD_VALUE:
      return read_value (field, node, event, error);

    case FIELD_STRING:
      if (!is_value_of_type (node, G_TYPE_STRING))
        {
          set_invalid (error, field->name, _("a string"));
          return FALSE;
        }
      *(const char **) ((char *) event + field->offset) = json_node_get_string (node);
      return TRUE;

    case FIELD_BOOLEAN:
      if (!is_value_of_type (node, G_TYPE_BOOLEAN))
        {
          set_invalid (error, field->name, _("true or false"));
          return FALSE;
        }
      store_number (field, event, json_node_get_boolean (node));
      return TRUE;

    case FIELD_DERIVED:
      if (!is_value_of_type (node, G_TYPE_DOUBLE) && !is_value_of_type (node, G_TYPE_INT64))
        {
          set_invalid (error, field->name, _("a number"));
          return FALSE;
        }
      return TRUE;

    case FIELD_INT64:
    case FIELD_INT:
    case FIELD_UINT:
      if (!is_value_of_type (node, G_TYPE_INT64))
        {
          set_not_a_number (error, field);
          return FALSE;
        }
      number = json_node_get_int (node);
      if (number < field->min || number > field->max)
        {
          set_not_a_number (error, field);
          return FALSE;
        }
      store_number (field, event, number);
      return TRUE;
    }

  g_assert_not_reached ();
}

static const Field *
find_field (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (g_str_equal (fields[i].name, name))
      return &fields[i];
  return NULL;
}

/**
 * _sluice_event_read:
 * @object: one line of `--events`, parsed
 * @event: (out caller-allocates): the event; its strings are borrowed from
 *   @object, its @value is a new reference the caller releases
 * @unknown_keys: (nullable) (element-type utf8): gets the names of keys the
 *   writer does not write (borrowed from @object); they are ignored
 * @error: return location for a %SLUICE_SCENARIO_ERROR that names the key
 *
 * Reads the event that sluice_recorder_event_to_line() wrote as @object:
 * written again, it gives the same line. `kind` and `time_us` are
 * required; a key that is left out takes the value the writer leaves out.
 *
 * Returns: %TRUE, or %FALSE with @error set and @event holding nothing to
 *   release
 */
gboolean
_sluice_event_read (JsonObject   *object,
                    SluiceEvent  *event,
                    GPtrArray    *unknown_keys,
                    GError      **error)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  memset (event, 0, sizeof *event);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      if (fields[i].required && !json_object_has_member (object, fields[i].name))
        {
          g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_MISSING_KEY,
                       /* Translators: %s is a key of an event line, such as “kind”. */
                       _("the event has no “%s”; expected every event to have kind and time_us"),
                       fields[i].name);
          return FALSE;
        }
      store_number (&fields[i], event, fields[i].absent);
    }

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &node))
    {
      const Field *field = find_field (name);

      if (field == NULL)
        {
          if (unknown_keys != NULL)
            g_ptr_array_add (unknown_keys, (gpointer) name);
          continue;
        }
      if (!read_field (field, node, event, error))
        {
          g_clear_pointer (&event->value, g_variant_unref);
          return FALSE;
        }
    }

  return TRUE;
}
