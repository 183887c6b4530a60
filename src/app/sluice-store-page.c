/* sluice-store-page.c: the base of the store window's fleet pages (see
 * the header)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The store and its read live here, so that an answer for a store
 * replaced since is dropped the same way on every page; a subclass only
 * says what it asks (make_query) and how it shows the answer (apply).
 */

#include "config-app.h"

#include "sluice-store-page.h"
#include "sluice-store-page-read.h"

typedef struct
{
  SluiceStorePageRead  read;
  SluiceClock         *clock;
  gint64               origin;
  gboolean             read_only;
  gboolean             projector;
  GPtrArray           *controls;  /* what read-only hides */
} SluiceStorePagePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (SluiceStorePage, sluice_store_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_READ_ONLY,
  PROP_PROJECTOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static SluiceStorePagePrivate *
private_of (SluiceStorePage *self)
{
  return sluice_store_page_get_instance_private (self);
}

static void
sluice_store_page_dispose (GObject *object)
{
  SluiceStorePagePrivate *priv = private_of (SLUICE_STORE_PAGE (object));

  sluice_store_page_read_clear (&priv->read);
  g_clear_object (&priv->clock);
  g_clear_pointer (&priv->controls, g_ptr_array_unref);
  G_OBJECT_CLASS (sluice_store_page_parent_class)->dispose (object);
}

static void
sluice_store_page_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SluiceStorePage *self = SLUICE_STORE_PAGE (object);

  switch (prop_id)
    {
    case PROP_READ_ONLY:
      g_value_set_boolean (value, sluice_store_page_get_read_only (self));
      break;
    case PROP_PROJECTOR:
      g_value_set_boolean (value, sluice_store_page_get_projector (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_page_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  SluiceStorePage *self = SLUICE_STORE_PAGE (object);

  switch (prop_id)
    {
    case PROP_READ_ONLY:
      sluice_store_page_set_read_only (self, g_value_get_boolean (value));
      break;
    case PROP_PROJECTOR:
      sluice_store_page_set_projector (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_page_class_init (SluiceStorePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_store_page_dispose;
  object_class->get_property = sluice_store_page_get_property;
  object_class->set_property = sluice_store_page_set_property;

  /**
   * SluiceStorePage:read-only:
   *
   * Whether the page only shows: its actions (Pause, Resume and the
   * limits on the Queues page, Forget Lost Workers on the Workers page)
   * are hidden, never left failing.
   */
  properties[PROP_READ_ONLY] =
    g_param_spec_boolean ("read-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SluiceStorePage:projector:
   *
   * Whether the page is laid out for a projector (its text wraps sooner,
   * its lanes and charts are taller).
   */
  properties[PROP_PROJECTOR] =
    g_param_spec_boolean ("projector", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sluice_store_page_init (SluiceStorePage *self)
{
  private_of (self)->controls = g_ptr_array_new ();
}

/**
 * sluice_store_page_set_store:
 * @self: a #SluiceStorePage
 * @store: (nullable): the store to show
 *
 * Shows @store from its next refresh on: a read in flight for the one
 * before is dropped, and what the page showed of it is forgotten.
 */
void
sluice_store_page_set_store (SluiceStorePage *self,
                             SluiceJobStore  *store)
{
  SluiceStorePagePrivate *priv;

  g_return_if_fail (SLUICE_IS_STORE_PAGE (self));
  g_return_if_fail (store == NULL || SLUICE_IS_JOB_STORE (store));

  priv = private_of (self);
  if (priv->read.store == store)
    return;
  sluice_store_page_read_set_store (&priv->read, store);
  if (SLUICE_STORE_PAGE_GET_CLASS (self)->show_store != NULL)
    SLUICE_STORE_PAGE_GET_CLASS (self)->show_store (self, store);
}

/**
 * sluice_store_page_get_store:
 * @self: a #SluiceStorePage
 *
 * Returns: (transfer none) (nullable): the store the page shows
 */
SluiceJobStore *
sluice_store_page_get_store (SluiceStorePage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_PAGE (self), NULL);
  return private_of (self)->read.store;
}

/**
 * sluice_store_page_get_generation:
 * @self: a #SluiceStorePage
 *
 * Returns: a number that changes whenever the store is replaced: a call
 *   started for the store before compares it to drop its answer
 */
guint
sluice_store_page_get_generation (SluiceStorePage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_PAGE (self), 0);
  return private_of (self)->read.generation;
}

static void
apply_read (GObject                     *page,
            const SluiceStoreAdminReply *reply,
            const GError                *error)
{
  SluiceStorePage *self = SLUICE_STORE_PAGE (page);

  SLUICE_STORE_PAGE_GET_CLASS (self)->apply (self, reply, error);
}

/**
 * sluice_store_page_refresh:
 * @self: a #SluiceStorePage
 *
 * Starts the page's read of its store, unless one is in flight; never
 * blocks.
 */
void
sluice_store_page_refresh (SluiceStorePage *self)
{
  SluiceStorePageClass *klass;
  g_autoptr(SluiceStoreAdminQuery) query = NULL;

  g_return_if_fail (SLUICE_IS_STORE_PAGE (self));

  klass = SLUICE_STORE_PAGE_GET_CLASS (self);
  if (klass->make_query == NULL || klass->apply == NULL)
    return;
  query = klass->make_query (self, sluice_store_page_get_now (self));
  if (query != NULL)
    sluice_store_page_read_start (&private_of (self)->read, G_OBJECT (self), query, apply_read);
}

/**
 * sluice_store_page_set_clock:
 * @self: a #SluiceStorePage
 * @clock: (nullable): the clock the page's now is read from; %NULL: the
 *   wall clock
 * @origin: the time, µs since the epoch, of @clock's 0
 *
 * For tests and replays: rates, heartbeats, leases and the last hour are
 * measured on @clock.
 */
void
sluice_store_page_set_clock (SluiceStorePage *self,
                             SluiceClock     *clock,
                             gint64           origin)
{
  SluiceStorePagePrivate *priv;

  g_return_if_fail (SLUICE_IS_STORE_PAGE (self));

  priv = private_of (self);
  g_set_object (&priv->clock, clock);
  priv->origin = origin;
}

/**
 * sluice_store_page_get_now:
 * @self: a #SluiceStorePage
 *
 * Returns: the page's now, µs since the epoch (see
 *   sluice_store_page_set_clock())
 */
gint64
sluice_store_page_get_now (SluiceStorePage *self)
{
  SluiceStorePagePrivate *priv;

  g_return_val_if_fail (SLUICE_IS_STORE_PAGE (self), 0);

  priv = private_of (self);
  return sluice_store_page_now (priv->clock, priv->origin);
}

gboolean
sluice_store_page_get_read_only (SluiceStorePage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_PAGE (self), FALSE);
  return private_of (self)->read_only;
}

void
sluice_store_page_set_read_only (SluiceStorePage *self,
                                 gboolean         read_only)
{
  SluiceStorePagePrivate *priv;

  g_return_if_fail (SLUICE_IS_STORE_PAGE (self));

  priv = private_of (self);
  read_only = !!read_only;
  if (priv->read_only == read_only)
    return;
  priv->read_only = read_only;
  sluice_store_page_show_controls (priv->controls, read_only);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READ_ONLY]);
}

gboolean
sluice_store_page_get_projector (SluiceStorePage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_PAGE (self), FALSE);
  return private_of (self)->projector;
}

void
sluice_store_page_set_projector (SluiceStorePage *self,
                                 gboolean         projector)
{
  SluiceStorePagePrivate *priv;

  g_return_if_fail (SLUICE_IS_STORE_PAGE (self));

  priv = private_of (self);
  projector = !!projector;
  if (priv->projector == projector)
    return;
  priv->projector = projector;
  if (SLUICE_STORE_PAGE_GET_CLASS (self)->show_projector != NULL)
    SLUICE_STORE_PAGE_GET_CLASS (self)->show_projector (self, projector);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECTOR]);
}

/**
 * sluice_store_page_add_control:
 * @self: a #SluiceStorePage
 * @control: a widget of the page that changes the store
 *
 * Hides @control while the page is read-only (at once if it is): a
 * read-only page shows no action that would fail (docs/store-admin.md).
 */
void
sluice_store_page_add_control (SluiceStorePage *self,
                               GtkWidget       *control)
{
  SluiceStorePagePrivate *priv;

  g_return_if_fail (SLUICE_IS_STORE_PAGE (self));
  g_return_if_fail (GTK_IS_WIDGET (control));

  priv = private_of (self);
  g_ptr_array_add (priv->controls, control);
  gtk_widget_set_visible (control, !priv->read_only);
}

/**
 * sluice_store_page_remove_control:
 * @self: a #SluiceStorePage
 * @control: a widget given to sluice_store_page_add_control()
 *
 * Forgets @control (the page removes it).
 */
void
sluice_store_page_remove_control (SluiceStorePage *self,
                                  GtkWidget       *control)
{
  SluiceStorePagePrivate *priv;

  g_return_if_fail (SLUICE_IS_STORE_PAGE (self));

  priv = private_of (self);
  /* Gone already when the page is being disposed. */
  if (priv->controls != NULL)
    g_ptr_array_remove (priv->controls, control);
}
