/* sluice-store-handler-private.h: the handler's fields, and what only the
 * tests may change
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-handler.h"

G_BEGIN_DECLS

/* The handler's fields, shared by sluice-store-handler.c (the attempt) and
 * sluice-store-handler-api.c (its settings). */
struct _SluiceStoreHandler
{
  GObject            parent_instance;

  SluiceStoreSource *source;
  SluiceHandler     *inner;
  double             heartbeat;
  gint64             heartbeat_us;
  gboolean           heartbeat_enabled;
  GStrv              retryable;
  SluiceBackoff      backoff;
  double             backoff_base;
  double             backoff_cap;
  SluiceJitter       jitter;
  guint              seed;
  gboolean           pipelined_completions;

  /* The attempts running, by job id (the tasks, not referenced): an
   * operator's cancel (SluiceJobStore::cancel-requested) renews at once. */
  GHashTable        *calls;
  SluiceJobStore    *store;
  gulong             cancel_requested_id;

  GRand             *rand;
  SluiceRandomFunc   random_func;
  gpointer           random_data;
  GDestroyNotify     random_destroy;
};


/* Without heartbeats an attempt slower than the lease loses it: the case
 * the tests must be able to make (docs/job-store.md). */
void _sluice_store_handler_set_heartbeat_enabled (SluiceStoreHandler *self,
                                                  gboolean            enabled);

G_END_DECLS
