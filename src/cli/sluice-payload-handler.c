/* sluice-payload-handler.c: the fault-injecting handler, with the
 * behaviour a stored job's payload names
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-payload-handler.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sluice-fault-handler.h"
#include "sluice-json-limits-private.h"
#include "sluice-store-source.h"

/**
 * SluicePayloadHandler:
 *
 * The handler of `sluice-run worker`: for an item of a #SluiceStoreSource
 * (%SLUICE_STORE_ITEM_TYPE) it behaves as the job's payload says, such as
 * `{"behaviour": "fail 2 ConnectionError 0.05", "value": 3}`, through a
 * #SluiceFaultHandler of its own for each attempt (the behaviours of
 * docs/scenario-format.md; `ok` when the payload names none). A success returns
 * the square of an integer `value`, any other value as it is, or null.
 *
 * A payload without `value` succeeds with null.
 *
 * `fail K TYPE [D]` counts the job's attempts, as the store does, not the
 * pool's: the pool of a worker never retries (the store does, maybe in
 * another process), so attempt N of the job is the claim's attempt, and the
 * first K of them fail. A payload that is no JSON object, or names no valid
 * behaviour, fails with `PayloadError`.
 */

struct _SluicePayloadHandler
{
  GObject      parent_instance;

  SluiceClock *clock;
};

static void handler_iface_init (SluiceHandlerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluicePayloadHandler, sluice_payload_handler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_HANDLER, handler_iface_init))

/* What attempt @number of `fail K TYPE D` does, on a pool that never
 * retries: fail as always for the first K, then succeed. */
static SluiceBehaviour *
behaviour_for_attempt (const SluiceBehaviour *behaviour,
                       guint                  number)
{
  SluiceBehaviour *effective = sluice_behaviour_copy (behaviour);

  if (behaviour->kind == SLUICE_BEHAVIOUR_FAIL)
    effective->kind = number <= behaviour->failures ? SLUICE_BEHAVIOUR_FAIL_ALWAYS : SLUICE_BEHAVIOUR_OK;
  return effective;
}

static GError *
payload_error (const char *job_id,
               const char *problem)
{
  /* Translators: the first %s is a job's id, the second what is wrong with its payload. */
  return sluice_named_error_new (SLUICE_PAYLOAD_ERROR, _("The payload of job %s: %s"), job_id, problem);
}

/* The payload's behaviour (`ok` when it names none) and value. */
static SluiceBehaviour *
read_payload (const char  *job_id,
              const char  *payload,
              JsonNode   **value,
              GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  const char *text = "ok";
  SluiceBehaviour *behaviour;
  JsonObject *object;

  /* Too deep a payload would overflow json-glib's recursion: the job goes
   * dead, the worker lives. Its size is the store's to bound. */
  if (!_sluice_json_check_limits (payload, -1, G_MAXSIZE, &local_error))
    {
      *error = payload_error (job_id, local_error->message);
      return NULL;
    }
  root = json_from_string (payload, &local_error);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      *error = payload_error (job_id, local_error != NULL ? local_error->message : _("not a JSON object"));
      return NULL;
    }

  object = json_node_get_object (root);
  if (json_object_has_member (object, "behaviour"))
    {
      JsonNode *node = json_object_get_member (object, "behaviour");

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          *error = payload_error (job_id, _("“behaviour” is not a string"));
          return NULL;
        }
      text = json_node_get_string (node);
    }

  behaviour = sluice_behaviour_parse (text, &local_error);
  if (behaviour == NULL)
    {
      *error = payload_error (job_id, local_error->message);
      return NULL;
    }

  if (json_object_has_member (object, "value"))
    *value = json_node_copy (json_object_get_member (object, "value"));
  return behaviour;
}

static GVariant *
result_for_value (JsonNode *value)
{
  GVariant *result = NULL;

  if (value != NULL && JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_INT64)
    {
      guint64 n = (guint64) json_node_get_int (value);

      return g_variant_ref_sink (g_variant_new_int64 ((gint64) (n * n)));
    }
  if (value != NULL && !JSON_NODE_HOLDS_NULL (value))
    result = json_gvariant_deserialize (value, NULL, NULL);
  if (result == NULL)
    result = g_variant_new_maybe (G_VARIANT_TYPE_VARIANT, NULL);
  return g_variant_ref_sink (result);
}

static void
on_fault_done (GObject      *object,
               GAsyncResult *res,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GVariant) fault_result = NULL;
  GError *error = NULL;

  fault_result = sluice_handler_handle_finish (SLUICE_HANDLER (object), res, &error);
  if (fault_result == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, result_for_value (g_task_get_task_data (task)),
                         (GDestroyNotify) g_variant_unref);
}

static void
sluice_payload_handler_handle_async (SluiceHandler       *handler,
                                     SluiceAttempt       *attempt,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  SluicePayloadHandler *self = SLUICE_PAYLOAD_HANDLER (handler);
  GVariant *item = sluice_attempt_get_item (attempt);
  g_autoptr(GTask) task = NULL;
  g_autoptr(SluiceBehaviour) behaviour = NULL;
  g_autoptr(SluiceBehaviour) effective = NULL;
  g_autoptr(SluiceFaultHandler) fault = NULL;
  JsonNode *value = NULL;
  const char *job_id, *key, *payload;
  GError *error = NULL;
  guint number;

  task = g_task_new (self, NULL, callback, user_data);
  /* The function, not GLib's macro, which also copies the tag's name into
   * the task: a string allocated for every attempt. */
  (g_task_set_source_tag) (task, sluice_payload_handler_handle_async);
  g_task_set_priority (task, sluice_attempt_get_priority (attempt));

  if (!g_variant_is_of_type (item, SLUICE_STORE_ITEM_TYPE))
    {
      g_autofree char *repr = g_variant_print (item, FALSE);

      g_task_return_error (task, payload_error (repr, _("the item is not a stored job")));
      return;
    }
  g_variant_get (item, "(&s&su&s)", &job_id, &key, &number, &payload);

  behaviour = read_payload (job_id, payload, &value, &error);
  if (behaviour == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* A payload without "value" has none: the result is null. GTask would
   * call the free function with NULL too, which json_node_unref() refuses. */
  if (value != NULL)
    g_task_set_task_data (task, value, (GDestroyNotify) json_node_unref);

  /* A handler of its own per attempt: the behaviour is the job's, and the
   * fault handler's are by item index, which a long-lived worker never
   * reuses. */
  effective = behaviour_for_attempt (behaviour, number);
  fault = sluice_fault_handler_new (self->clock, effective);
  sluice_handler_handle_async (SLUICE_HANDLER (fault), attempt, cancellable, on_fault_done,
                               g_steal_pointer (&task));
}

static void
handler_iface_init (SluiceHandlerInterface *iface)
{
  iface->handle_async = sluice_payload_handler_handle_async;
}

static void
sluice_payload_handler_finalize (GObject *object)
{
  SluicePayloadHandler *self = SLUICE_PAYLOAD_HANDLER (object);

  g_clear_object (&self->clock);

  G_OBJECT_CLASS (sluice_payload_handler_parent_class)->finalize (object);
}

static void
sluice_payload_handler_class_init (SluicePayloadHandlerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_payload_handler_finalize;
}

static void
sluice_payload_handler_init (SluicePayloadHandler *self)
{
}

/**
 * sluice_payload_handler_new:
 * @clock: the clock of the pool that will call it
 *
 * Returns: (transfer full): a new handler
 */
SluicePayloadHandler *
sluice_payload_handler_new (SluiceClock *clock)
{
  SluicePayloadHandler *self;

  g_return_val_if_fail (SLUICE_IS_CLOCK (clock), NULL);

  self = g_object_new (SLUICE_TYPE_PAYLOAD_HANDLER, NULL);
  self->clock = g_object_ref (clock);
  return self;
}
