/* sluice-scenario-private.h: what the scenario's files (the object, its
 * file reading, loader, value reader, writer, builders and comparison) share
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
  GStrv              fatal;
  double             shutdown_timeout; /* 0: none */

  guint              count;           /* a range source: the items 0..count-1,
                                       * made when pulled */
  GPtrArray         *values;          /* GVariant*: the items of `values=`,
                                       * or NULL for a range */
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
  double             caller_delay;    /* seconds with each result; 0: none */
  SluiceClockKind    clock_kind;

  /* [retry] (docs/retry-policy.md): the values, defaults when a key is absent,
   * and which keys were written, so that saving writes those alone. */
  SluiceBackoff      backoff;
  double             backoff_base;
  double             backoff_cap;
  SluiceJitter       jitter;
  guint32            retry_seed;
  double             item_deadline;   /* 0: none */
  double             retry_budget;    /* 0: none */
  double             retry_budget_ratio;
  guint              retry_given;     /* bits: 1 << SluiceRetryKey */

  /* [submit] (docs/submit-and-shutdown.md); in stream mode only snapshot-at. */
  GArray            *snapshot_at;     /* double seconds, in the order written */
  SluiceScenarioMode mode;            /* [run] mode */
  GHashTable        *give_up;         /* gint64* job index → double* seconds */
  double             give_up_after;   /* < 0: never */
  double             close_after_seconds; /* < 0: at the source's end */

  SluiceLesson      *lesson;          /* [lesson] (docs/teaching.md), or NULL */
};

/* The keys of [retry], in the order of the spec's table (and of a saved
 * file). */
typedef enum {
  SLUICE_RETRY_KEY_BACKOFF,
  SLUICE_RETRY_KEY_BASE,
  SLUICE_RETRY_KEY_CAP,
  SLUICE_RETRY_KEY_JITTER,
  SLUICE_RETRY_KEY_SEED,
  SLUICE_RETRY_KEY_DEADLINE,
  SLUICE_RETRY_KEY_BUDGET,
  SLUICE_RETRY_KEY_BUDGET_RATIO,
  SLUICE_RETRY_N_KEYS,
} SluiceRetryKey;

/* What _sluice_scenario_read_number() takes. */
typedef enum {
  SLUICE_NUMBER_SECONDS,          /* seconds ≥ 0 */
  SLUICE_NUMBER_POSITIVE_SECONDS, /* seconds > 0, at least 1 µs */
  SLUICE_NUMBER_SECONDS_OR_NONE,  /* 0, or seconds of at least 1 µs */
  SLUICE_NUMBER_TOKENS,           /* tokens ≥ 0, at most 3 decimals */
  SLUICE_NUMBER_POSITIVE_TOKENS,  /* tokens > 0, at most 3 decimals */
  SLUICE_NUMBER_TIMES,            /* one of ';'-separated times: 0, or seconds
                                   * of at least 1 µs */
} SluiceNumberKind;

/* What a ';'-separated list holds, for the message about an empty token. */
typedef enum {
  SLUICE_LIST_ITEMS,       /* [source] values */
  SLUICE_LIST_TYPE_NAMES,  /* error type names: retryable, fatal */
  SLUICE_LIST_TIMES,       /* [submit] snapshot-at */
} SluiceListKind;

/* The parser's context: where a value came from. */
typedef struct {
  const char *name;       /* the file, as shown to users */
  const char *text;       /* the file's text, for line numbers, or NULL */
  GHashTable *overridden; /* "group\nkey" set by --set */
} SluiceScenarioParser;

/* The words of the format, shared by the loader and the writer. */
extern const char * const _sluice_scenario_metrics_names[]; /* by SluiceMetricsMode */
extern const char * const _sluice_scenario_clock_names[];   /* real, virtual */
extern const char * const _sluice_scenario_mode_names[];    /* by SluiceScenarioMode */
extern const char * const _sluice_scenario_fault_keys[];    /* by SluiceSourceFault */
extern const char * const _sluice_scenario_retry_keys[];    /* by SluiceRetryKey */
extern const char * const _sluice_scenario_backoff_names[]; /* by SluiceBackoff */
extern const char * const _sluice_scenario_text_groups[];  /* scenario, lesson */
extern const char * const _sluice_scenario_lesson_keys[];
extern const char * const _sluice_scenario_lesson_patterns[];
extern const char * const _sluice_scenario_jitter_names[];  /* by SluiceJitter */

#define SLUICE_SCENARIO_MAX_SECONDS    1e9
#define SLUICE_SCENARIO_DEFAULT_BASE   0.1
#define SLUICE_SCENARIO_DEFAULT_CAP    10.0
#define SLUICE_SCENARIO_DEFAULT_RATIO  0.1
#define SLUICE_SCENARIO_MAX_CAP        3600.0
#define SLUICE_SCENARIO_MAX_BUDGET     1000000.0

const char * const *_sluice_scenario_format_groups   (void);
const char * const *_sluice_scenario_format_keys     (const char *group);
const char * const *_sluice_scenario_format_patterns (const char *group);

gboolean         _sluice_scenario_load_keyfile    (SluiceScenario              *self,
                                                   const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   GError                     **error);
gboolean         _sluice_scenario_equal           (SluiceScenario              *a,
                                                   SluiceScenario              *b,
                                                   const char                 **difference);

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

gboolean         _sluice_scenario_check_duplicates (const SluiceScenarioParser *p,
                                                   GError                     **error);
gboolean         _sluice_scenario_check_text      (const char                  *name,
                                                   const char                  *data,
                                                   gsize                        length,
                                                   GError                     **error);
gboolean         _sluice_scenario_parse_item_key  (const char                  *key,
                                                   gint64                      *index);
gboolean         _sluice_scenario_parse_index_key (const char                  *key,
                                                   const char                  *prefix,
                                                   gint64                      *index);
GVariant        *_sluice_scenario_parse_value     (const char                  *token);

char            *_sluice_scenario_read_raw        (GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key);
gboolean         _sluice_scenario_check_escapes   (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   GError                     **error);
char            *_sluice_scenario_read_string     (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   GError                     **error);
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
gboolean         _sluice_scenario_read_number     (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   SluiceNumberKind             kind,
                                                   double                       max,
                                                   double                      *out,
                                                   GError                     **error);
gboolean         _sluice_scenario_read_times      (const SluiceScenarioParser  *p,
                                                   GKeyFile                    *keyfile,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   GArray                     **out,
                                                   GError                     **error);
gboolean         _sluice_scenario_split_list      (const SluiceScenarioParser  *p,
                                                   const char                  *group,
                                                   const char                  *key,
                                                   const char                  *text,
                                                   SluiceListKind               kind,
                                                   GStrv                       *tokens,
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

char *_sluice_scenario_real_time_key (SluiceScenario *self);

gboolean _sluice_scenario_load_lesson (SluiceScenario              *self,
                                       const SluiceScenarioParser  *p,
                                       GKeyFile                    *keyfile,
                                       GError                     **error);

G_END_DECLS
