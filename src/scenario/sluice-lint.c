/* sluice-lint.c: one warning about a run, on for an interval of its clock
 * (docs/teaching.md, Lints)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-lint-private.h"

#include <glib/gi18n-lib.h>
#include <locale.h>

G_DEFINE_BOXED_TYPE (SluiceLint, sluice_lint, sluice_lint_ref, sluice_lint_unref)

/* A text domain with no catalogue: gettext gives back the English source
 * text of a message, with English plurals, whatever the user's language.
 * The JSON report's messages come from it; the same calls with
 * GETTEXT_PACKAGE give the app's. */
#define SOURCE_TEXT_DOMAIN "sluice-source-text"

/* The most items or workers a message lists before “and N more”. */
#define MAX_LISTED 8

static const char * const kind_names[SLUICE_LINT_N_KINDS] = {
  "timeout-below-typical", "retry-storm", "ignoring-cancel", "blocked-loop", "saturated", "dominant-error",
};

static const char *
text_domain (gboolean translated)
{
  return translated ? GETTEXT_PACKAGE : SOURCE_TEXT_DOMAIN;
}

SluiceLint *
_sluice_lint_new (SluiceLintKind kind,
                  gint64         on)
{
  SluiceLint *self = g_new0 (SluiceLint, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->on = on;
  self->off = -1;
  self->items = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->workers = g_array_new (FALSE, FALSE, sizeof (gint));
  return self;
}

/**
 * sluice_lint_ref:
 * @self: a #SluiceLint
 *
 * Returns: (transfer full): @self
 */
SluiceLint *
sluice_lint_ref (SluiceLint *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * sluice_lint_unref:
 * @self: (transfer full): a #SluiceLint
 *
 * Drops a reference; the last one frees it.
 */
void
sluice_lint_unref (SluiceLint *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_array_unref (self->items);
  g_array_unref (self->workers);
  g_free (self);
}

/* Keeps @item once, in ascending order, found by bisection: a long storm
 * names thousands, mostly at the end. */
void
_sluice_lint_add_item (SluiceLint *self,
                       gint64      item)
{
  guint low = 0, high = self->items->len;

  if (item < 0)
    return;
  if (high > 0 && g_array_index (self->items, gint64, high - 1) < item)
    {
      g_array_append_val (self->items, item);
      return;
    }
  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (g_array_index (self->items, gint64, mid) < item)
        low = mid + 1;
      else
        high = mid;
    }
  if (low < self->items->len && g_array_index (self->items, gint64, low) == item)
    return;
  g_array_insert_val (self->items, low, item);
}

void
_sluice_lint_add_worker (SluiceLint *self,
                         gint        worker)
{
  guint i = self->workers->len;

  if (worker < 0)
    return;
  while (i > 0 && g_array_index (self->workers, gint, i - 1) > worker)
    i--;
  if (i > 0 && g_array_index (self->workers, gint, i - 1) == worker)
    return;
  g_array_insert_val (self->workers, i, worker);
}

/**
 * sluice_lint_kind_to_string:
 * @kind: a #SluiceLintKind
 *
 * Returns: the kind's stable machine name, such as `retry-storm` (the
 *   report's `kind`)
 */
const char *
sluice_lint_kind_to_string (SluiceLintKind kind)
{
  g_return_val_if_fail (kind < SLUICE_LINT_N_KINDS, NULL);
  return kind_names[kind];
}

/**
 * sluice_lint_kind_from_string:
 * @name: a machine name, such as `retry-storm`
 * @kind: (out): its kind
 *
 * Returns: whether @name is a kind's name
 */
gboolean
sluice_lint_kind_from_string (const char     *name,
                              SluiceLintKind *kind)
{
  for (guint k = 0; k < SLUICE_LINT_N_KINDS; k++)
    if (g_strcmp0 (name, kind_names[k]) == 0)
      {
        *kind = k;
        return TRUE;
      }
  return FALSE;
}

/**
 * sluice_lint_kind_get_title:
 * @kind: a #SluiceLintKind
 * @translated: in the user's language, rather than English
 *
 * Returns: a short title for people, such as “Retry storm”
 */
const char *
sluice_lint_kind_get_title (SluiceLintKind kind,
                            gboolean       translated)
{
  const char *domain = text_domain (translated);

  switch (kind)
    {
    case SLUICE_LINT_TIMEOUT_BELOW_TYPICAL:
      /* Translators: the title of a lint (a warning about a run) */
      return g_dcgettext (domain, "Timeout below the typical duration", LC_MESSAGES);
    case SLUICE_LINT_RETRY_STORM:
      /* Translators: the title of a lint (a warning about a run) */
      return g_dcgettext (domain, "Retry storm", LC_MESSAGES);
    case SLUICE_LINT_IGNORING_CANCEL:
      /* Translators: the title of a lint (a warning about a run) */
      return g_dcgettext (domain, "An attempt ignores cancellation", LC_MESSAGES);
    case SLUICE_LINT_BLOCKED_LOOP:
      /* Translators: the title of a lint (a warning about a run) */
      return g_dcgettext (domain, "Blocked main loop", LC_MESSAGES);
    case SLUICE_LINT_SATURATED:
      /* Translators: the title of a lint (a warning about a run) */
      return g_dcgettext (domain, "Saturated pool", LC_MESSAGES);
    case SLUICE_LINT_DOMINANT_ERROR:
      /* Translators: the title of a lint (a warning about a run) */
      return g_dcgettext (domain, "One error type causes most failures", LC_MESSAGES);
    case SLUICE_LINT_N_KINDS:
    default:
      g_return_val_if_reached (NULL);
    }
}

/**
 * sluice_lint_get_kind:
 * @self: a #SluiceLint
 *
 * Returns: what it warns about
 */
SluiceLintKind
sluice_lint_get_kind (const SluiceLint *self)
{
  g_return_val_if_fail (self != NULL, SLUICE_LINT_N_KINDS);
  return self->kind;
}

/**
 * sluice_lint_get_on:
 * @self: a #SluiceLint
 *
 * Returns: when it turned on, in µs of the run's clock
 */
gint64
sluice_lint_get_on (const SluiceLint *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->on;
}

/**
 * sluice_lint_get_off:
 * @self: a #SluiceLint
 *
 * Returns: when it turned off, in µs of the run's clock, or -1 while it
 *   is on (and when it was still on at the run's end)
 */
gint64
sluice_lint_get_off (const SluiceLint *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->off;
}

/**
 * sluice_lint_is_on_at:
 * @self: a #SluiceLint
 * @time: a time of the run's clock, in µs
 *
 * Returns: whether it was on at @time: from its on time, included, to
 *   its off time, excluded
 */
gboolean
sluice_lint_is_on_at (const SluiceLint *self,
                      gint64            time)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return time >= self->on && (self->off < 0 || time < self->off);
}

/**
 * sluice_lint_get_items:
 * @self: a #SluiceLint
 * @n_items: (out) (optional): how many
 *
 * Returns: (array length=n_items) (transfer none): the items involved
 *   while it was on, ascending
 */
const gint64 *
sluice_lint_get_items (const SluiceLint *self,
                       guint            *n_items)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (n_items != NULL)
    *n_items = self->items->len;
  return (const gint64 *) (gpointer) self->items->data;
}

/**
 * sluice_lint_get_workers:
 * @self: a #SluiceLint
 * @n_workers: (out) (optional): how many
 *
 * Returns: (array length=n_workers) (transfer none): the workers involved
 *   while it was on, ascending
 */
const gint *
sluice_lint_get_workers (const SluiceLint *self,
                         guint            *n_workers)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (n_workers != NULL)
    *n_workers = self->workers->len;
  return (const gint *) (gpointer) self->workers->data;
}

/* ---- the message ------------------------------------------------------- */

/* Seconds with three decimals: the user's decimal mark for people, a
 * point for the JSON report. */
static char *
format_seconds (gint64   us,
                gboolean translated)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (translated)
    /* Translators: a time or duration in a lint's message; %.3f is seconds */
    return g_strdup_printf (g_dpgettext2 (GETTEXT_PACKAGE, "lint", "%.3f s"), us / (double) G_USEC_PER_SEC);
  return g_strconcat (g_ascii_formatd (buffer, sizeof buffer, "%.3f", us / (double) G_USEC_PER_SEC), " s", NULL);
}

/* "1, 3, 5", or "1, 2, … 8 and 4 more" past MAX_LISTED. */
static char *
format_list (GArray   *numbers,
             gboolean  is_item,
             gboolean  translated)
{
  g_autoptr(GString) list = g_string_new (NULL);
  guint shown = MIN (numbers->len, MAX_LISTED);
  guint more = numbers->len - shown;

  for (guint i = 0; i < shown; i++)
    {
      if (i > 0)
        g_string_append (list, ", ");
      if (is_item)
        g_string_append_printf (list, "%" G_GINT64_FORMAT, g_array_index (numbers, gint64, i));
      else
        g_string_append_printf (list, "%d", g_array_index (numbers, gint, i));
    }
  if (more == 0)
    return g_string_free (g_steal_pointer (&list), FALSE);

  /* Translators: the end of a list of items or workers in a lint's
   * message: “1, 2, 3, 4, 5, 6, 7, 8 and 4 more”; the %s is the list */
  return g_strdup_printf (g_dngettext (text_domain (translated), "%s and %u more", "%s and %u more", more),
                          list->str, more);
}

/* "Items: 1, 3, 5." */
static void
append_items (GString          *text,
              const SluiceLint *self,
              gboolean          translated)
{
  g_autofree char *list = NULL;

  if (self->items->len == 0)
    return;
  list = format_list (self->items, TRUE, translated);
  g_string_append_c (text, ' ');
  /* Translators: names the items a lint is about; the %s is a list of
   * item numbers, such as “1, 3, 5” */
  g_string_append_printf (text, g_dngettext (text_domain (translated), "Item: %s.", "Items: %s.",
                                             self->items->len),
                          list);
}

static void
append_workers (GString          *text,
                const SluiceLint *self,
                gboolean          translated)
{
  g_autofree char *list = NULL;

  if (self->workers->len == 0)
    return;
  list = format_list (self->workers, FALSE, translated);
  g_string_append_c (text, ' ');
  /* Translators: names the workers a lint is about; the %s is a list of
   * worker numbers, such as “0, 2” */
  g_string_append_printf (text, g_dngettext (text_domain (translated), "Worker: %s.", "Workers: %s.",
                                             self->workers->len),
                          list);
}

static void
append_timeout (GString          *text,
                const SluiceLint *self,
                gboolean          translated)
{
  g_autofree char *timeout = format_seconds (self->span, translated);
  const char *domain = text_domain (translated);

  /* Translators: a lint's message; the first %u counts the attempts that timed
   * out, the second the recent attempts, %s is item-timeout (“0.500 s”) */
  g_string_append_printf (text, g_dngettext (domain,
                                             "Most attempts time out: %u of the last %u attempt ended at "
                                             "item-timeout (%s).",
                                             "Most attempts time out: %u of the last %u attempts ended at "
                                             "item-timeout (%s).",
                                             self->total),
                          self->count, self->total, timeout);
  append_items (text, self, translated);
  append_workers (text, self, translated);
}

static void
append_storm (GString          *text,
              const SluiceLint *self,
              gboolean          translated)
{
  g_autofree char *window = format_seconds (self->span, translated);
  const char *domain = text_domain (translated);

  /* Translators: a lint's message; the first %u counts retries, %s is a duration
   * (“1.000 s”), the second %u counts the attempts that succeeded then */
  g_string_append_printf (text, g_dngettext (domain,
                                             "%u retry in the last %s, more than the attempts that "
                                             "succeeded (%u).",
                                             "%u retries in the last %s, more than the attempts that "
                                             "succeeded (%u).",
                                             self->count),
                          self->count, window, self->total);
  append_items (text, self, translated);
}

static void
append_ignoring (GString          *text,
                 const SluiceLint *self,
                 gboolean          translated)
{
  g_autofree char *list = format_list (self->items, TRUE, translated);
  g_autofree char *wait = format_seconds (self->span, translated);
  const char *domain = text_domain (translated);

  /* Translators: a lint's message; the first %s lists items (“0, 3”), the second
   * is the wait between two requests (“10.000 s”) */
  g_string_append_printf (text, g_dngettext (domain,
                                             "Item %s ignored three requests to stop, %s apart; the pool "
                                             "waits for it however long it takes.",
                                             "Items %s ignored three requests to stop, %s apart; the pool "
                                             "waits for them however long they take.",
                                             self->items->len),
                          list, wait);
  append_workers (text, self, translated);
}

static void
append_blocked (GString          *text,
                const SluiceLint *self,
                gboolean          translated)
{
  g_autofree char *late = format_seconds (self->span, translated);
  const char *domain = text_domain (translated);

  /* Translators: a lint's message; %s is how late a timer fired (“0.200 s”) */
  g_string_append_printf (text, g_dcgettext (domain,
                                             "A timer fired %s late: something held the main loop, such "
                                             "as a blocking call in a handler.",
                                             LC_MESSAGES),
                          late);
  if (self->items->len > 0)
    {
      g_autofree char *list = format_list (self->items, TRUE, translated);

      g_string_append_c (text, ' ');
      /* Translators: in a lint's message, after “A timer fired … late”; %s lists items (“0, 1, 2”) */
      g_string_append_printf (text, g_dngettext (domain, "Item running then: %s.", "Items running then: %s.",
                                                 self->items->len),
                              list);
    }
  append_workers (text, self, translated);
}

static void
append_saturated (GString          *text,
                  const SluiceLint *self,
                  gboolean          translated)
{
  g_autofree char *busy = format_seconds (self->busy, translated);
  g_autofree char *window = format_seconds (self->span, translated);
  const char *domain = text_domain (translated);

  /* Translators: a lint's message; the first %u is the queue's capacity, the
   * second the workers, then two durations (“0.800 s” of the last “1.000 s”) */
  g_string_append_printf (text, g_dngettext (domain,
                                             "The queue was full (%u) and the %u worker busy for %s of the "
                                             "last %s.",
                                             "The queue was full (%u) and all %u workers busy for %s of the "
                                             "last %s.",
                                             self->count),
                          self->total, self->count, busy, window);
}

static void
append_dominant (GString          *text,
                 const SluiceLint *self,
                 gboolean          translated)
{
  const char *domain = text_domain (translated);

  /* Translators: a lint's message; %s is an error type (“ConnectionError”), the
   * first %u counts its failures, the second the recent failures */
  g_string_append_printf (text, g_dngettext (domain, "%s caused %u of the last %u failure.",
                                             "%s caused %u of the last %u failures.", self->total),
                          self->error_type != NULL ? self->error_type : "Error", self->count, self->total);
  append_items (text, self, translated);
}

/**
 * sluice_lint_dup_message:
 * @self: a #SluiceLint
 * @translated: in the user's language, rather than English
 *
 * Returns: (transfer full): what it saw, in sentences naming the items
 *   and workers involved
 */
char *
sluice_lint_dup_message (const SluiceLint *self,
                         gboolean          translated)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);

  switch (self->kind)
    {
    case SLUICE_LINT_TIMEOUT_BELOW_TYPICAL:
      append_timeout (text, self, translated);
      break;
    case SLUICE_LINT_RETRY_STORM:
      append_storm (text, self, translated);
      break;
    case SLUICE_LINT_IGNORING_CANCEL:
      append_ignoring (text, self, translated);
      break;
    case SLUICE_LINT_BLOCKED_LOOP:
      append_blocked (text, self, translated);
      break;
    case SLUICE_LINT_SATURATED:
      append_saturated (text, self, translated);
      break;
    case SLUICE_LINT_DOMINANT_ERROR:
      append_dominant (text, self, translated);
      break;
    case SLUICE_LINT_N_KINDS:
    default:
      g_return_val_if_reached (NULL);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * sluice_lint_dup_advice:
 * @self: a #SluiceLint
 * @translated: in the user's language, rather than English
 *
 * Returns: (transfer full): what to try
 */
char *
sluice_lint_dup_advice (const SluiceLint *self,
                        gboolean          translated)
{
  const char *domain;

  g_return_val_if_fail (self != NULL, NULL);

  domain = text_domain (translated);
  switch (self->kind)
    {
    case SLUICE_LINT_TIMEOUT_BELOW_TYPICAL:
      /* Translators: what to try, for a lint */
      return g_strdup (g_dcgettext (domain, "Raise item-timeout above the time a typical attempt needs, or make "
                                    "the handler faster: retrying an attempt that cannot finish in time only "
                                    "adds load.", LC_MESSAGES));
    case SLUICE_LINT_RETRY_STORM:
      /* Translators: what to try, for a lint */
      return g_strdup (g_dcgettext (domain, "Spread the retries with jitter, limit them with a retry budget, or "
                                    "retry fewer errors: each retry adds load to what is already failing.",
                                    LC_MESSAGES));
    case SLUICE_LINT_IGNORING_CANCEL:
      /* Translators: what to try, for a lint */
      return g_strdup (g_dcgettext (domain, "Make the handler stop when its GCancellable is cancelled (or pass "
                                    "the cancellable on to what it calls), so that a deadline can end it.",
                                    LC_MESSAGES));
    case SLUICE_LINT_BLOCKED_LOOP:
      /* Translators: what to try, for a lint */
      return g_strdup (g_dcgettext (domain, "Move the blocking call into a thread (a thread handler) or make it "
                                    "asynchronous: while it blocks, no timer, deadline or other item can run.",
                                    LC_MESSAGES));
    case SLUICE_LINT_SATURATED:
      /* Translators: what to try, for a lint */
      return g_strdup (g_dcgettext (domain, "Add workers if the work can run side by side, or shed load: a "
                                    "smaller queue-size, an item deadline.", LC_MESSAGES));
    case SLUICE_LINT_DOMINANT_ERROR:
      /* Translators: what to try, for a lint; %s is an error type (“ConnectionError”) */
      return g_strdup_printf (g_dcgettext (domain, "Look at %s first: fixing its cause, or not retrying it, "
                                           "removes most failures.", LC_MESSAGES),
                              self->error_type != NULL ? self->error_type : "Error");
    case SLUICE_LINT_N_KINDS:
    default:
      g_return_val_if_reached (NULL);
    }
}
