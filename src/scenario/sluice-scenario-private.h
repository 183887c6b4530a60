/* sluice-scenario-private.h: what the scenario's loader, value reader and
 * writer share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-scenario.h"

#include <glib/gi18n-lib.h>

G_BEGIN_DECLS

struct _SluiceScenario
{
  GObject            parent_instance;

  char              *name;
  char              *title;
  char              *description;
  GKeyFile          *texts;           /* the [scenario] group as read, with
                                       * title[LANG] and description[LANG];
                                       * or NULL */

  gint               workers;
  gint               queue_size;
  double             item_timeout;
  gint               max_retries;
  GStrv              retryable;
  SluiceMetricsMode  metrics;
  gboolean           keep_going;

  GPtrArray         *items;           /* GVariant* */
  gboolean           items_from_values;
  double             interval;
  SluiceSourceFault  fault;
  guint              fault_after;

  SluiceBehaviour   *default_behaviour;
  GHashTable        *item_behaviours; /* gint64* → SluiceBehaviour* */
  GPtrArray         *mix;             /* SluiceMixEntry*, or NULL */
  guint32            seed;
  gboolean           has_seed;

  gint64             stop_after;
  gint64             close_after;     /* 0: never */
  double             cancel_after;    /* < 0: never */
  SluiceClockKind    clock_kind;
};

/* The parser's context: where a value came from. */
typedef struct {
  const char *name;       /* the file, as shown to users */
  const char *text;       /* the file's text, for line numbers, or NULL */
  GHashTable *overridden; /* "group\nkey" set by --set */
} SluiceScenarioParser;

/* The words of the format, shared by the loader and the writer. */
extern const char * const _sluice_scenario_metrics_names[]; /* by SluiceMetricsMode */
extern const char * const _sluice_scenario_clock_names[];   /* real, virtual */
extern const char * const _sluice_scenario_fault_keys[];    /* by SluiceSourceFault */

char            *_sluice_scenario_override_id     (const char                  *group,
                                                   const char                  *key);
G_GNUC_PRINTF (6, 7)
void             _sluice_scenario_set_error       (const SluiceScenarioParser  *p,
                                                   GError                     **error,
                                                   gint                         code,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   const char                  *format,
                                                   ...);

gboolean         _sluice_scenario_check_text      (const char                  *name,
                                                   const char                  *data,
                                                   gsize                        length,
                                                   GError                     **error);
gboolean         _sluice_scenario_parse_item_key  (const char                  *key,
                                                   gint64                      *index);
GVariant        *_sluice_scenario_parse_value     (const char                  *token);

char            *_sluice_scenario_read_raw        (GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key);
gboolean         _sluice_scenario_require_key     (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   const char                  *expected,
                                                   GError                     **error);
gboolean         _sluice_scenario_read_int        (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   gint64                       min,
                                                   gint64                       max,
                                                   gint64                      *out,
                                                   GError                     **error);
gboolean         _sluice_scenario_read_seconds    (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   gboolean                     positive,
                                                   double                      *out,
                                                   GError                     **error);
gboolean         _sluice_scenario_read_bool       (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   gboolean                    *out,
                                                   GError                     **error);
gboolean         _sluice_scenario_read_choice     (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   const char * const          *choices,
                                                   guint                       *out,
                                                   GError                     **error);
gboolean         _sluice_scenario_read_error_types (const SluiceScenarioParser *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   GStrv                       *out,
                                                   GError                     **error);
void             _sluice_scenario_keep_texts      (SluiceScenario              *self,
                                                   GKeyFile                    *keyfile);
SluiceBehaviour *_sluice_scenario_read_behaviour  (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *key,
                                                   GError                     **error);

G_END_DECLS
