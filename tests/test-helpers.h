/* test-helpers.h: what the suites share that is no fixture of one layer:
 * waiting on the main context with a bound, a private message bus's
 * connections, a child's readiness lines, running a program to its end,
 * scratch files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Time in the suites is virtual; the wall clock here only bounds a wait
 * (SLUICE_TEST_WAIT_LIMIT_US), so that a broken test fails instead of
 * hanging, and a child is waited for by the line it prints when ready,
 * never by a sleep.
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

G_BEGIN_DECLS

/* AddressSanitizer keeps freed memory in quarantine and maps terabytes of
 * shadow memory: no memory or address-space bound is measured under it. */
#if defined(__SANITIZE_ADDRESS__)
#define SLUICE_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLUICE_TEST_UNDER_ASAN 1
#endif
#endif

/* How long a wait for a condition may last before the test fails. */
#define SLUICE_TEST_WAIT_LIMIT_US (60 * G_USEC_PER_SEC)

gboolean sluice_test_wake_up (gpointer user_data);
gboolean sluice_test_fail_watchdog (gpointer message);

/* Turns the thread-default main context until @cond holds; fails the
 * test with the condition's text after SLUICE_TEST_WAIT_LIMIT_US. A
 * timeout wakes the context now and then only so that the limit is
 * checked even when nothing happens. */
#define SLUICE_TEST_SPIN_UNTIL(cond) G_STMT_START {                                \
    gint64 spin_limit_ = g_get_monotonic_time () + SLUICE_TEST_WAIT_LIMIT_US;      \
    guint spin_wake_ = g_timeout_add (250, sluice_test_wake_up, NULL);             \
    while (!(cond))                                                                \
      {                                                                            \
        if (g_get_monotonic_time () > spin_limit_)                                 \
          g_error ("%s:%d: still waiting for %s", __FILE__, __LINE__, #cond);      \
        g_main_context_iteration (NULL, TRUE);                                     \
      }                                                                            \
    g_source_remove (spin_wake_);                                                  \
  } G_STMT_END

/* Turns the thread-default main context until @cond holds (a subprocess's
 * or a store call's answer); a watchdog of @seconds fails the test with
 * @what instead of waiting for ever. For a suite whose slowest answer on
 * a loaded machine wants a time of its own, not SLUICE_TEST_WAIT_LIMIT_US. */
#define SLUICE_TEST_SPIN_WITHIN(seconds, what, cond) G_STMT_START {                 \
    g_autofree char *spin_message_ = g_strdup_printf ("%s: not within %u s",       \
                                                      (what), (guint) (seconds));  \
    guint spin_watchdog_ = g_timeout_add_seconds ((seconds),                       \
                                                  sluice_test_fail_watchdog,       \
                                                  spin_message_);                  \
    while (!(cond))                                                                \
      g_main_context_iteration (NULL, TRUE);                                       \
    g_source_remove (spin_watchdog_);                                              \
  } G_STMT_END

GDBusConnection *sluice_test_bus_connection_new (GTestDBus *bus);

char            *sluice_test_read_line          (GDataInputStream *lines);
GStrv            sluice_test_read_words         (GDataInputStream *lines,
                                                 const char       *first,
                                                 guint             n_words);
void             sluice_test_wait_for_line      (GDataInputStream *lines,
                                                 const char       *needle,
                                                 const char       *who);

gint             sluice_test_run_to_end         (const char * const *argv,
                                                 char              **out,
                                                 char              **err);

/* A language the tests switch the app's messages to, and "Pulled" in it:
 * a test asks sluice_test_try_language() and is skipped where the build
 * tree has no catalogue for it. */
typedef struct {
  const char *language;   /* "" for none: the messages as written */
  const char *pulled;
} SluiceTestLanguage;

/* "", "de", "id" */
extern const SluiceTestLanguage sluice_test_languages[3];

void             sluice_test_set_language       (const char *language);
gboolean         sluice_test_try_language       (const char *language);

char            *sluice_test_read_text          (const char *path);
char            *sluice_test_temp_path          (const char *name);
void             sluice_test_remove_temp        (const char *path);

void             sluice_test_save_png           (cairo_surface_t *surface,
                                                 const char      *name);

G_END_DECLS
