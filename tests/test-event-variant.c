/* test-event-variant.c: an event as a{sv}, the record of the D-Bus export,
 * against its line of the event log
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sluice_event_to_variant() gives the keys of the event's JSON line, in
 * its order, with the same values; sluice_event_new_from_variant() reads
 * the dictionary back into an event that writes the same line again. Every
 * event of every preset, run on the virtual clock, is checked; then the
 * reader's refusals: not a dictionary, no kind, a key of the wrong type or
 * out of range.
 */

#include <string.h>

#include <json-glib/json-glib.h>

#include "run-fixture.h"

/* The dictionary as GVariantBuilder makes it, key for key: what the
 * engine's writer, which writes the serialised form straight, must give
 * byte for byte. */
static GVariant *
reference_variant (const SluiceEvent *event)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "kind", g_variant_new_string (sluice_event_kind_to_string (event->kind)));
  g_variant_builder_add (&b, "{sv}", "time_us", g_variant_new_int64 (event->time));
  g_variant_builder_add (&b, "{sv}", "time", g_variant_new_double ((double) event->time / G_USEC_PER_SEC));
  if (event->item >= 0)
    g_variant_builder_add (&b, "{sv}", "item", g_variant_new_int64 (event->item));
  if (event->attempt > 0)
    g_variant_builder_add (&b, "{sv}", "attempt", g_variant_new_uint32 (event->attempt));
  if (event->worker >= 0)
    g_variant_builder_add (&b, "{sv}", "worker", g_variant_new_int32 (event->worker));
  if (event->round > 0)
    g_variant_builder_add (&b, "{sv}", "round", g_variant_new_uint32 (event->round));
  if (event->outcome != SLUICE_OUTCOME_NONE)
    {
      g_variant_builder_add (&b, "{sv}", "outcome", g_variant_new_string (sluice_outcome_to_string (event->outcome)));
      g_variant_builder_add (&b, "{sv}", "retried", g_variant_new_boolean (event->retried));
    }
  if (event->error_type != NULL)
    g_variant_builder_add (&b, "{sv}", "error_type", g_variant_new_string (event->error_type));
  if (event->error_message != NULL)
    g_variant_builder_add (&b, "{sv}", "error_message", g_variant_new_string (event->error_message));
  if (event->value != NULL)
    g_variant_builder_add (&b, "{sv}", "value", event->value);
  if ((event->kind == SLUICE_EVENT_BACKOFF || event->kind == SLUICE_EVENT_RETRY_SKIPPED) && event->delay >= 0)
    g_variant_builder_add (&b, "{sv}", "delay_us", g_variant_new_int64 (event->delay));
  if (event->reason != NULL)
    g_variant_builder_add (&b, "{sv}", "reason", g_variant_new_string (event->reason));
  if (event->tokens >= 0)
    g_variant_builder_add (&b, "{sv}", "tokens", g_variant_new_int64 (event->tokens));
  if (event->kind == SLUICE_EVENT_ATTEMPT_START && event->deadline >= 0)
    {
      g_variant_builder_add (&b, "{sv}", "deadline_us", g_variant_new_int64 (event->deadline));
      g_variant_builder_add (&b, "{sv}", "deadline", g_variant_new_double ((double) event->deadline / G_USEC_PER_SEC));
    }
  if (event->kind == SLUICE_EVENT_RUN_START)
    {
      g_variant_builder_add (&b, "{sv}", "queue_capacity", g_variant_new_uint32 (event->queue_capacity));
      g_variant_builder_add (&b, "{sv}", "lead_bound", g_variant_new_uint32 (event->lead_bound));
      if (event->item_timeout >= 0)
        g_variant_builder_add (&b, "{sv}", "item_timeout_us", g_variant_new_int64 (event->item_timeout));
    }
  g_variant_builder_add (&b, "{sv}", "queued", g_variant_new_uint32 (event->queued));
  g_variant_builder_add (&b, "{sv}", "in_flight", g_variant_new_uint32 (event->in_flight));
  g_variant_builder_add (&b, "{sv}", "pulled", g_variant_new_uint32 (event->pulled));
  g_variant_builder_add (&b, "{sv}", "succeeded", g_variant_new_uint32 (event->succeeded));
  g_variant_builder_add (&b, "{sv}", "failed", g_variant_new_uint32 (event->failed));
  g_variant_builder_add (&b, "{sv}", "retries", g_variant_new_uint32 (event->retries));
  g_variant_builder_add (&b, "{sv}", "lead", g_variant_new_uint32 (event->lead));
  return g_variant_ref_sink (g_variant_builder_end (&b));
}

/* The writer's bytes are GVariantBuilder's: the same normal form. */
static void
assert_serialised_like_builder (GVariant          *variant,
                                const SluiceEvent *event)
{
  g_autoptr(GVariant) reference = reference_variant (event);

  g_assert_true (g_variant_is_normal_form (variant));
  g_assert_cmpuint (g_variant_get_size (variant), ==, g_variant_get_size (reference));
  g_assert_cmpmem (g_variant_get_data (variant), g_variant_get_size (variant),
                   g_variant_get_data (reference), g_variant_get_size (reference));
}

/* One member of the JSON line against the variant's value for its key. */
static void
assert_value_equals_json (const char *key,
                          GVariant   *value,
                          JsonNode   *node,
                          const char *line)
{
  GType type = json_node_get_value_type (node);

  g_assert_true (JSON_NODE_HOLDS_VALUE (node));

  if (g_str_equal (key, "value"))
    {
      /* The writer puts an int64 as a number, a string as itself, any
       * other value as its printed text; the dictionary has the value. */
      if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
        {
          g_assert_cmpint (type, ==, G_TYPE_INT64);
          g_assert_cmpint (json_node_get_int (node), ==, g_variant_get_int64 (value));
        }
      else
        {
          g_autofree char *text = g_variant_is_of_type (value, G_VARIANT_TYPE_STRING)
                                  ? g_variant_dup_string (value, NULL)
                                  : g_variant_print (value, FALSE);

          g_assert_cmpint (type, ==, G_TYPE_STRING);
          g_assert_cmpstr (json_node_get_string (node), ==, text);
        }
      return;
    }

  if (type == G_TYPE_INT64)
    {
      gint64 number;

      if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
        number = g_variant_get_int64 (value);
      else if (g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
        number = g_variant_get_uint32 (value);
      else if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT32))
        number = g_variant_get_int32 (value);
      else
        g_error ("%s: “%s” is a %s, not an integer, in %s", key, key, g_variant_get_type_string (value), line);
      g_assert_cmpint (json_node_get_int (node), ==, number);
    }
  else if (type == G_TYPE_DOUBLE)
    {
      /* The writer's doubles read back exactly (g_ascii_dtostr). */
      g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE));
      g_assert_cmpfloat (json_node_get_double (node), ==, g_variant_get_double (value));
    }
  else if (type == G_TYPE_BOOLEAN)
    {
      g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN));
      g_assert_cmpint (json_node_get_boolean (node), ==, g_variant_get_boolean (value));
    }
  else if (type == G_TYPE_STRING)
    {
      g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING));
      g_assert_cmpstr (json_node_get_string (node), ==, g_variant_get_string (value, NULL));
    }
  else
    g_error ("%s: unexpected JSON type %s in %s", key, g_type_name (type), line);
}

/* The dictionary has the line's keys, in its order, and its values. */
static void
assert_variant_equals_line (GVariant   *variant,
                            const char *line)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = json_from_string (line, &error);
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;
  gsize n = 0;

  g_assert_no_error (error);
  g_assert_true (g_variant_is_of_type (variant, G_VARIANT_TYPE_VARDICT));

  json_object_iter_init_ordered (&iter, json_node_get_object (root));
  while (json_object_iter_next_ordered (&iter, &member, &node))
    {
      g_autoptr(GVariant) entry = NULL;
      g_autoptr(GVariant) value = NULL;
      const char *key;

      g_assert_cmpuint (n, <, g_variant_n_children (variant));
      entry = g_variant_get_child_value (variant, n++);
      g_variant_get (entry, "{&sv}", &key, &value);
      if (!g_str_equal (key, member))
        g_error ("key %" G_GSIZE_FORMAT " is “%s”, the line's is “%s”: %s", n - 1, key, member, line);
      assert_value_equals_json (key, value, node, line);
    }
  g_assert_cmpuint (n, ==, g_variant_n_children (variant));
}

/* Every event of the preset @data: its dictionary against its line, and
 * read back, the same line again. */
static void
test_every_event_of_a_preset_equals_its_line (gconstpointer data)
{
  g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset (data, NULL, NULL);
  guint n = sluice_recorder_get_n_events (recorder);

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      const SluiceEvent *event = sluice_recorder_get_event (recorder, i);
      g_autofree char *line = sluice_recorder_event_to_line (event);
      g_autoptr(GVariant) variant = g_variant_ref_sink (sluice_event_to_variant (event));
      g_autoptr(GVariant) again = NULL;
      g_autoptr(SluiceEvent) back = NULL;
      g_autofree char *line_back = NULL;
      g_autoptr(GError) error = NULL;

      assert_variant_equals_line (variant, line);
      assert_serialised_like_builder (variant, event);

      back = sluice_event_new_from_variant (variant, &error);
      g_assert_no_error (error);
      g_assert_nonnull (back);
      line_back = sluice_recorder_event_to_line (back);
      g_assert_cmpstr (line_back, ==, line);
      again = g_variant_ref_sink (sluice_event_to_variant (back));
      g_assert_true (g_variant_equal (again, variant));
    }
}

/* The presets checked one by one have every kind of event between them:
 * no kind goes unchecked. */
static void
test_presets_have_every_kind (void)
{
  const char * const presets[] = {
    "mix", "retries", "hang", "late", "stubborn", "deadline-shed", "retry-budget",
    "retry-storm-jitter", "shutdown-deadline", "shutdown-overrun", "disk-full",
    "service-ten-images", "source-raise", "cancel-self", "keep-going", "stop-after",
    "duplicates", "cancel-after-seconds", "close-after",
  };
  gboolean seen[SLUICE_EVENT_N_KINDS] = { FALSE };

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    {
      g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset (presets[p], NULL, NULL);

      for (guint i = 0; i < sluice_recorder_get_n_events (recorder); i++)
        seen[sluice_recorder_get_event (recorder, i)->kind] = TRUE;
    }

  for (guint kind = 0; kind < SLUICE_EVENT_N_KINDS; kind++)
    if (!seen[kind])
      g_error ("no preset has a %s event", sluice_event_kind_to_string (kind));
}

/* A value of any type travels as itself: the line has its printed text. */
static void
test_value_of_any_type_round_trips (void)
{
  SluiceEvent event = { .kind = SLUICE_EVENT_ITEM_OK, .time = 1500000, .item = 3, .worker = 0,
                        .delay = -1, .tokens = -1, .deadline = -1, .item_timeout = -1,
                        .pulled = 4, .succeeded = 1, .lead = 3 };
  g_autoptr(GVariant) value = g_variant_ref_sink (g_variant_new_parsed ("(uint32 7, ['a', 'b'])"));
  g_autoptr(GVariant) variant = NULL;
  g_autoptr(SluiceEvent) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  event.value = value;
  variant = g_variant_ref_sink (sluice_event_to_variant (&event));
  line = sluice_recorder_event_to_line (&event);
  assert_variant_equals_line (variant, line);
  assert_serialised_like_builder (variant, &event);

  back = sluice_event_new_from_variant (variant, &error);
  g_assert_no_error (error);
  g_assert_true (g_variant_equal (back->value, value));
  g_assert_cmpint (back->item, ==, 3);
  g_assert_cmpint (back->attempt, ==, 0);
  g_assert_cmpint (back->worker, ==, 0);
  g_assert_cmpint (back->delay, ==, -1);
  g_assert_cmpuint (back->lead, ==, 3);
}

/* Entries and events past 255 bytes take wider framing offsets; an error
 * message that is not UTF-8 is made valid, as D-Bus needs. */
static void
test_long_and_invalid_strings (void)
{
  g_autofree char *long_message = g_strnfill (70000, 'x');
  SluiceEvent event = { .kind = SLUICE_EVENT_ATTEMPT_END, .time = 7, .item = 1, .attempt = 2, .worker = 1,
                        .outcome = SLUICE_OUTCOME_FAILED, .error_type = "ValueError",
                        .delay = -1, .tokens = 1500, .deadline = -1, .item_timeout = -1 };
  g_autoptr(GVariant) variant = NULL;
  g_autoptr(GVariant) value = NULL;
  const char *text;

  for (gsize length = 200; length <= 70000; length = length * 3 + 1)
    {
      g_autoptr(GVariant) v = NULL;

      long_message[length] = '\0';
      event.error_message = long_message;
      v = g_variant_ref_sink (sluice_event_to_variant (&event));
      assert_serialised_like_builder (v, &event);
      long_message[length] = 'x';
    }

  event.error_message = "bad \xff byte";
  variant = g_variant_ref_sink (sluice_event_to_variant (&event));
  g_assert_true (g_variant_is_normal_form (variant));
  g_assert_true (g_variant_lookup (variant, "error_message", "&s", &text));
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_true (g_str_has_prefix (text, "bad "));
  g_assert_true (g_str_has_suffix (text, " byte"));
}

static void
assert_refused (const char *text,
                const char *message_part)
{
  g_autoptr(GVariant) variant = g_variant_ref_sink (g_variant_new_parsed (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceEvent) event = sluice_event_new_from_variant (variant, &error);

  g_assert_null (event);
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_EVENT);
  if (strstr (error->message, message_part) == NULL)
    g_error ("%s: “%s” does not say “%s”", text, error->message, message_part);
}

/* What is not an event is refused with an error naming the key, never
 * taken half-read. */
static void
test_from_variant_refuses_what_is_not_an_event (void)
{
  assert_refused ("('run-start', 0)", "a{sv}");
  assert_refused ("@a{sv} {'time_us': <int64 0>}", "“kind”");
  assert_refused ("{'kind': <'pull'>}", "“time_us”");
  assert_refused ("{'kind': <'no-such-kind'>, 'time_us': <int64 0>}", "no-such-kind");
  assert_refused ("{'kind': <'pull'>, 'time_us': <0>}", "“time_us”");
  assert_refused ("{'kind': <'pull'>, 'time_us': <int64 0>, 'item': <int64 -2>}", "“item”");
  assert_refused ("{'kind': <'attempt-start'>, 'time_us': <int64 0>, 'attempt': <uint32 0>}", "“attempt”");
  assert_refused ("{'kind': <'attempt-end'>, 'time_us': <int64 0>, 'outcome': <'maybe'>}", "maybe");
  assert_refused ("{'kind': <'pull'>, 'time_us': <int64 0>, 'queued': <'three'>}", "“queued”");
  assert_refused ("{'kind': <'pull'>, 'time_us': <int64 0>, 'time': <int64 0>}", "“time”");
}

/* A key it does not know is left alone: a newer exporter may add some. */
static void
test_from_variant_ignores_unknown_keys (void)
{
  g_autoptr(GVariant) variant = g_variant_ref_sink (g_variant_new_parsed (
    "{'kind': <'pull'>, 'time_us': <int64 250000>, 'item': <int64 2>, 'colour': <'blue'>, 'pulled': <uint32 3>}"));
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceEvent) event = sluice_event_new_from_variant (variant, &error);

  g_assert_no_error (error);
  g_assert_cmpint (event->kind, ==, SLUICE_EVENT_PULL);
  g_assert_cmpint (event->time, ==, 250000);
  g_assert_cmpint (event->item, ==, 2);
  g_assert_cmpuint (event->pulled, ==, 3);
  g_assert_null (event->value);
  g_assert_cmpint (event->tokens, ==, -1);
}

int
main (int   argc,
      char *argv[])
{
  const char * const presets[] = {
    "first-look", "mix", "retries", "hang", "late", "stubborn", "deadline-shed", "retry-budget",
    "retry-storm-jitter", "shutdown-deadline", "shutdown-overrun", "disk-full", "service-ten-images",
    "source-raise", "cancel-self", "keep-going", "stop-after", "cancel-after-seconds",
    "duplicates", "close-after",
  };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      g_autofree char *path = g_strdup_printf ("/event-variant/every-event-equals-its-line/%s", presets[i]);

      g_test_add_data_func (path, presets[i], test_every_event_of_a_preset_equals_its_line);
    }
  g_test_add_func ("/event-variant/presets-have-every-kind", test_presets_have_every_kind);
  g_test_add_func ("/event-variant/value-of-any-type-round-trips", test_value_of_any_type_round_trips);
  g_test_add_func ("/event-variant/long-and-invalid-strings", test_long_and_invalid_strings);
  g_test_add_func ("/event-variant/from-variant-refuses-what-is-not-an-event",
                   test_from_variant_refuses_what_is_not_an_event);
  g_test_add_func ("/event-variant/from-variant-ignores-unknown-keys", test_from_variant_ignores_unknown_keys);

  return g_test_run ();
}
