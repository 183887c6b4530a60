/* sluice-event-item.c: one recorded event as a list item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-event-item.h"

/**
 * SluiceEventItem:
 *
 * A copy of one #SluiceEvent, for the list models of the event log and the
 * error group. @position is the event's number in the run, from 0.
 */

struct _SluiceEventItem
{
  GObject      parent_instance;

  SluiceEvent  event;     /* owns its strings and value */
  guint64      position;
  char        *haystack;  /* lower-case text the filter searches, built lazily */
};

G_DEFINE_FINAL_TYPE (SluiceEventItem, sluice_event_item, G_TYPE_OBJECT)

static void
sluice_event_item_finalize (GObject *object)
{
  SluiceEventItem *self = SLUICE_EVENT_ITEM (object);

  g_free ((char *) self->event.error_type);
  g_free ((char *) self->event.error_message);
  g_clear_pointer (&self->event.value, g_variant_unref);
  g_free (self->haystack);

  G_OBJECT_CLASS (sluice_event_item_parent_class)->finalize (object);
}

static void
sluice_event_item_class_init (SluiceEventItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_event_item_finalize;
}

static void
sluice_event_item_init (SluiceEventItem *self)
{
}

/**
 * sluice_event_item_new:
 * @event: the event; it is copied
 * @position: its number in the run
 *
 * Returns: (transfer full): a new item
 */
SluiceEventItem *
sluice_event_item_new (const SluiceEvent *event,
                       guint64            position)
{
  SluiceEventItem *self;

  g_return_val_if_fail (event != NULL, NULL);

  self = g_object_new (SLUICE_TYPE_EVENT_ITEM, NULL);
  self->event = *event;
  self->event.error_type = g_strdup (event->error_type);
  self->event.error_message = g_strdup (event->error_message);
  self->event.value = event->value ? g_variant_ref (event->value) : NULL;
  self->position = position;

  return self;
}

/**
 * sluice_event_item_get_event:
 * @self: a #SluiceEventItem
 *
 * Returns: (transfer none): the event
 */
const SluiceEvent *
sluice_event_item_get_event (SluiceEventItem *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_ITEM (self), NULL);
  return &self->event;
}

/**
 * sluice_event_item_get_position:
 * @self: a #SluiceEventItem
 *
 * Returns: the event's number in the run, from 0
 */
guint64
sluice_event_item_get_position (SluiceEventItem *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_ITEM (self), 0);
  return self->position;
}

/**
 * sluice_event_item_dup_detail:
 * @self: a #SluiceEventItem
 *
 * Returns: (transfer full): what the event says besides its kind, item,
 *   attempt and worker: the outcome, the error, the value or the round
 */
char *
sluice_event_item_dup_detail (SluiceEventItem *self)
{
  const SluiceEvent *e;
  GString *text;

  g_return_val_if_fail (SLUICE_IS_EVENT_ITEM (self), NULL);

  e = &self->event;
  text = g_string_new (NULL);

  if (e->outcome != SLUICE_OUTCOME_NONE)
    g_string_append (text, sluice_outcome_to_string (e->outcome));
  if (e->retried)
    g_string_append_printf (text, "%s%s", text->len ? ", " : "", _("will retry"));
  if (e->round > 0)
    g_string_append_printf (text, "%s%s %u", text->len ? ", " : "", _("round"), e->round);
  if (e->error_type != NULL)
    g_string_append_printf (text, "%s%s: %s", text->len ? " — " : "", e->error_type,
                            e->error_message ? e->error_message : "");
  if (e->value != NULL)
    {
      g_autofree char *value = g_variant_print (e->value, FALSE);
      g_string_append_printf (text, "%s%s", text->len ? " — " : "", value);
    }

  return g_string_free (text, FALSE);
}

/**
 * sluice_event_item_matches:
 * @self: a #SluiceEventItem
 * @needle: (nullable): lower-case text to look for
 *
 * Returns: whether the kind, item, worker or detail contains @needle
 */
gboolean
sluice_event_item_matches (SluiceEventItem *self,
                           const char      *needle)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_ITEM (self), FALSE);

  if (needle == NULL || *needle == '\0')
    return TRUE;

  if (self->haystack == NULL)
    {
      g_autofree char *detail = sluice_event_item_dup_detail (self);
      g_autofree char *text = g_strdup_printf ("%s item %" G_GINT64_FORMAT " attempt %u worker %d %s",
                                               sluice_event_kind_to_string (self->event.kind),
                                               self->event.item, self->event.attempt,
                                               self->event.worker, detail);
      self->haystack = g_utf8_strdown (text, -1);
    }

  return strstr (self->haystack, needle) != NULL;
}
