/* sluice-result-list.c: a run's results as lines of text, made when shown
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-result-list.h"

/**
 * SluiceResultList:
 *
 * A #GListModel of #GtkStringObject: the results of a run in the order
 * they arrived, each as a numbered line with its value and time. It keeps
 * each result's value and time, and writes a line only when a view asks
 * for it: a fast run hands back tens of thousands of results, and the
 * list shows a screenful. Results are added as they are read and shown at
 * the next sluice_result_list_flush(), in one change.
 */

typedef struct {
  GVariant *value;  /* nullable */
  gint64    time;
} Result;

struct _SluiceResultList
{
  GObject  parent_instance;

  GArray  *results;   /* Result */
  guint    n_shown;   /* the first n_shown results are in the model */
};

static void sluice_result_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceResultList, sluice_result_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sluice_result_list_model_init))

static GType
sluice_result_list_get_item_type (GListModel *model)
{
  return GTK_TYPE_STRING_OBJECT;
}

static guint
sluice_result_list_get_n_items (GListModel *model)
{
  return SLUICE_RESULT_LIST (model)->n_shown;
}

static gpointer
sluice_result_list_get_item (GListModel *model,
                             guint       i)
{
  SluiceResultList *self = SLUICE_RESULT_LIST (model);
  const Result *result;
  g_autofree char *value = NULL;
  g_autofree char *line = NULL;

  if (i >= self->n_shown)
    return NULL;

  result = &g_array_index (self->results, Result, i);
  value = result->value != NULL ? g_variant_print (result->value, FALSE) : g_strdup ("()");
  line = g_strdup_printf (_("%u.  %s  at %.3f s"), i + 1, value, (double) result->time / G_USEC_PER_SEC);

  return gtk_string_object_new (line);
}

static void
sluice_result_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = sluice_result_list_get_item_type;
  iface->get_n_items = sluice_result_list_get_n_items;
  iface->get_item = sluice_result_list_get_item;
}

static void
result_clear (gpointer data)
{
  Result *result = data;

  g_clear_pointer (&result->value, g_variant_unref);
}

static void
sluice_result_list_finalize (GObject *object)
{
  SluiceResultList *self = SLUICE_RESULT_LIST (object);

  g_clear_pointer (&self->results, g_array_unref);

  G_OBJECT_CLASS (sluice_result_list_parent_class)->finalize (object);
}

static void
sluice_result_list_class_init (SluiceResultListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_result_list_finalize;
}

static void
sluice_result_list_init (SluiceResultList *self)
{
  self->results = g_array_new (FALSE, FALSE, sizeof (Result));
  g_array_set_clear_func (self->results, result_clear);
}

/**
 * sluice_result_list_new:
 *
 * Returns: (transfer full): an empty list
 */
SluiceResultList *
sluice_result_list_new (void)
{
  return g_object_new (SLUICE_TYPE_RESULT_LIST, NULL);
}

/**
 * sluice_result_list_add:
 * @self: a #SluiceResultList
 * @event: a %SLUICE_EVENT_RESULT event; its value is kept
 *
 * Adds the result at the next sluice_result_list_flush().
 */
void
sluice_result_list_add (SluiceResultList  *self,
                        const SluiceEvent *event)
{
  Result result;

  g_return_if_fail (SLUICE_IS_RESULT_LIST (self));
  g_return_if_fail (event != NULL);

  result.value = event->value != NULL ? g_variant_ref (event->value) : NULL;
  result.time = event->time;
  g_array_append_val (self->results, result);
}

/**
 * sluice_result_list_flush:
 * @self: a #SluiceResultList
 *
 * Shows the results added since the last flush, in one change: a fast run
 * hands back thousands a frame, and every change makes the list view do
 * its work again.
 */
void
sluice_result_list_flush (SluiceResultList *self)
{
  g_return_if_fail (SLUICE_IS_RESULT_LIST (self));

  sluice_result_list_show (self, self->results->len);
}

/**
 * sluice_result_list_show:
 * @self: a #SluiceResultList
 * @n: how many of the results added to show, from the first
 *
 * Shows the results handed back up to a moment of the run (the scrubber's),
 * in one change of the model.
 */
void
sluice_result_list_show (SluiceResultList *self,
                         guint             n)
{
  guint before;

  g_return_if_fail (SLUICE_IS_RESULT_LIST (self));

  n = MIN (n, self->results->len);
  if (self->n_shown == n)
    return;

  before = self->n_shown;
  self->n_shown = n;
  if (n > before)
    g_list_model_items_changed (G_LIST_MODEL (self), before, 0, n - before);
  else
    g_list_model_items_changed (G_LIST_MODEL (self), n, before - n, 0);
}

/**
 * sluice_result_list_clear:
 * @self: a #SluiceResultList
 *
 * Removes every result.
 */
void
sluice_result_list_clear (SluiceResultList *self)
{
  guint before;

  g_return_if_fail (SLUICE_IS_RESULT_LIST (self));

  before = self->n_shown;
  g_array_set_size (self->results, 0);
  self->n_shown = 0;
  if (before > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before, 0);
}
