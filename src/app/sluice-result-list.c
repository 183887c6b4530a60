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
 * A #GListModel of #GtkStringObject over a #SluiceRunModel's results: the
 * results handed back by the moment shown, in the order they arrived,
 * each as a numbered line with its value and time. The run model keeps
 * each result; the list writes a line only when a view asks for it (a
 * fast run hands back tens of thousands, and the list shows a screenful)
 * and follows the model at sluice_result_list_sync(), in one change.
 */

struct _SluiceResultList
{
  GObject         parent_instance;

  SluiceRunModel *model;     /* nullable */
  guint           n_shown;   /* the first n_shown results are in the list */
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
  GVariant *result;
  gint64 time;
  g_autofree char *value = NULL;
  g_autofree char *line = NULL;

  if (i >= self->n_shown)
    return NULL;

  result = sluice_run_model_get_result (self->model, i, &time);
  value = result != NULL ? g_variant_print (result, FALSE) : g_strdup ("()");
  line = g_strdup_printf (_("%u.  %s  at %.3f s"), i + 1, value, (double) time / G_USEC_PER_SEC);

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
sluice_result_list_finalize (GObject *object)
{
  SluiceResultList *self = SLUICE_RESULT_LIST (object);

  g_clear_object (&self->model);

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

static void
show (SluiceResultList *self,
      guint             n)
{
  guint before = self->n_shown;

  if (before == n)
    return;
  self->n_shown = n;
  if (n > before)
    g_list_model_items_changed (G_LIST_MODEL (self), before, 0, n - before);
  else
    g_list_model_items_changed (G_LIST_MODEL (self), n, before - n, 0);
}

/**
 * sluice_result_list_set_model:
 * @self: a #SluiceResultList
 * @model: (nullable): the run whose results to list
 *
 * Lists @model's results from now on: those of another run are gone at
 * once.
 */
void
sluice_result_list_set_model (SluiceResultList *self,
                              SluiceRunModel   *model)
{
  g_return_if_fail (SLUICE_IS_RESULT_LIST (self));
  g_return_if_fail (model == NULL || SLUICE_IS_RUN_MODEL (model));

  if (self->model == model)
    return;
  show (self, 0);
  g_set_object (&self->model, model);
  sluice_result_list_sync (self);
}

/**
 * sluice_result_list_sync:
 * @self: a #SluiceResultList
 *
 * Lists the results handed back by the model's moment shown, in one change:
 * a fast run hands back thousands a frame, and every change makes the
 * list view do its work again.
 */
void
sluice_result_list_sync (SluiceResultList *self)
{
  g_return_if_fail (SLUICE_IS_RESULT_LIST (self));

  show (self, self->model != NULL ? sluice_run_model_get_n_results_shown (self->model) : 0);
}
