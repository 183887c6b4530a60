/* bench-util.c: time, memory, percentiles and child processes for the benchmark
 *
 * A child's figures come from wait4(): its own CPU time and peak RSS, so
 * a whole process (sluice-run, python3, the Go peer) is measured the same
 * way whatever it is written in. Each child is started by a launcher (this
 * program again, small and fresh), so that its peak RSS is its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Time and memory {{{ */

double
wall_now (void)
{
  return (double) g_get_monotonic_time () / G_USEC_PER_SEC;
}

double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* A "Vm...:  1234 kB" line of /proc/self/status, in bytes. */
gint64
proc_status_bytes (const char *field)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  gsize len = strlen (field);

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return -1;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strncmp (lines[i], field, len) == 0 && lines[i][len] == ':')
      return g_ascii_strtoll (lines[i] + len + 1, NULL, 10) * 1024;
  return -1;
}

int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Nearest-rank percentile of a sorted array. */
double
percentile (const GArray *sorted,
            double        p)
{
  guint rank;

  if (sorted->len == 0)
    return 0.0;
  rank = (guint) MAX (1.0, (p / 100.0) * sorted->len + 0.999999);
  return g_array_index (sorted, double, MIN (rank, sorted->len) - 1);
}

double
median3 (double a,
         double b,
         double c)
{
  return MAX (MIN (a, b), MIN (MAX (a, b), c));
}

/* }}} */
/* Child processes {{{ */

static int
open_capture (void)
{
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("sluice-bench-XXXXXX", &path, NULL);

  if (fd < 0)
    g_error ("cannot create a temporary file");
  unlink (path);
  return fd;
}

static char *
read_capture (int fd)
{
  GString *text = g_string_new (NULL);
  char buf[8192];
  ssize_t n;

  lseek (fd, 0, SEEK_SET);
  while ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (text, buf, n);
  close (fd);
  return g_string_free (text, FALSE);
}

static char **
child_environ (const char * const *env)
{
  char **envp = g_get_environ ();

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *eq = strchr (env[i], '=');
      g_autofree char *name = g_strndup (env[i], eq - env[i]);

      envp = g_environ_setenv (envp, name, eq + 1, TRUE);
    }
  return envp;
}

/* Between fork() and exec() only async-signal-safe calls. FD 3 is where
 * the launcher writes its figures. */
static void
exec_child (const char  *path,
            char       **argv,
            char       **envp,
            int          out_fd,
            int          err_fd,
            int          figures_fd)
{
  int null_fd = open ("/dev/null", O_RDONLY);

  dup2 (null_fd, 0);
  dup2 (out_fd, 1);
  dup2 (err_fd, 2);
  dup2 (figures_fd, 3);
  execve (path, argv, envp);
  _exit (127);
}

/* Waits for PID, killing it at DEADLINE (wall_now() seconds; 0: never).
 * Returns whether it was killed. */
static gboolean
wait_child (pid_t          pid,
            double         deadline,
            int           *status,
            struct rusage *ru)
{
  while (deadline > 0.0 && wait4 (pid, status, WNOHANG, ru) == 0)
    {
      if (wall_now () >= deadline)
        {
          kill (pid, SIGKILL);
          while (wait4 (pid, status, 0, ru) < 0 && errno == EINTR)
            ;
          return TRUE;
        }
      g_usleep (1000);
    }
  if (deadline <= 0.0)
    while (wait4 (pid, status, 0, ru) < 0 && errno == EINTR)
      ;
  return FALSE;
}

/* The launcher: `bench-pool --spawn LIMIT -- PATH ARG...`, a fresh small
 * process between this one and the measured one. A child forked from
 * this process would start with its resident set as its peak (the kernel
 * keeps the high-water mark across fork and exec), so the peak RSS of a
 * child of a bench that has held 100,000 attempts would be that bench's. */
int
bench_spawn_main (int    argc,
                  char **argv)
{
  double limit = g_ascii_strtod (argv[2], NULL);
  struct rusage ru = { 0 };
  int status = 0;
  gboolean killed;
  double t0, wall, cpu;
  pid_t pid;
  char line[256];

  g_assert (argc >= 5 && g_str_equal (argv[3], "--"));
  t0 = wall_now ();
  pid = fork ();
  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      close (3);
      execv (argv[4], argv + 4);
      _exit (127);
    }
  killed = wait_child (pid, limit > 0.0 ? t0 + limit : 0.0, &status, &ru);
  wall = wall_now () - t0;
  cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  g_snprintf (line, sizeof line, "%d %d %.6f %.6f %ld\n", status, killed, wall, cpu, ru.ru_maxrss);
  return write (3, line, strlen (line)) == (ssize_t) strlen (line) ? 0 : 1;
}

static char **
launcher_argv (const char         *path,
               const char * const *argv,
               double              limit)
{
  GPtrArray *a = g_ptr_array_new ();
  char limit_text[G_ASCII_DTOSTR_BUF_SIZE];

  g_ptr_array_add (a, g_file_read_link ("/proc/self/exe", NULL));
  g_ptr_array_add (a, g_strdup ("--spawn"));
  g_ptr_array_add (a, g_strdup (g_ascii_dtostr (limit_text, sizeof limit_text, limit)));
  g_ptr_array_add (a, g_strdup ("--"));
  g_ptr_array_add (a, g_strdup (path));
  for (guint i = 1; argv[i] != NULL; i++)
    g_ptr_array_add (a, g_strdup (argv[i]));
  g_ptr_array_add (a, NULL);
  return (char **) g_ptr_array_free (a, FALSE);
}

static void
read_figures (int    fd,
              Child *child)
{
  g_autofree char *text = read_capture (fd);
  int killed = 0;
  long max_rss = 0;

  if (sscanf (text, "%d %d %lf %lf %ld", &child->status, &killed, &child->wall, &child->cpu, &max_rss) != 5)
    g_error ("the launcher of a child reported nothing");
  child->killed = killed != 0;
  child->max_rss = (gint64) max_rss * 1024;
}

void
child_run (const char * const *argv,
           const char * const *env,
           double              limit,
           Child              *child)
{
  g_autofree char *path = g_find_program_in_path (argv[0]);
  g_auto(GStrv) envp = NULL;
  g_auto(GStrv) launcher = NULL;
  int out_fd, err_fd, figures_fd, status;
  struct rusage ru;
  pid_t pid;

  memset (child, 0, sizeof *child);
  if (path == NULL)
    {
      child->err = g_strdup_printf ("%s: not found or not executable", argv[0]);
      return;
    }
  envp = child_environ (env);
  launcher = launcher_argv (path, argv, limit);
  out_fd = open_capture ();
  err_fd = open_capture ();
  figures_fd = open_capture ();
  fflush (stdout);
  fflush (stderr);

  pid = fork ();
  if (pid < 0)
    g_error ("fork: %s", g_strerror (errno));
  if (pid == 0)
    exec_child (launcher[0], launcher, envp, out_fd, err_fd, figures_fd);
  wait_child (pid, 0.0, &status, &ru);

  child->ran = TRUE;
  read_figures (figures_fd, child);
  child->out = read_capture (out_fd);
  child->err = read_capture (err_fd);
}

void
child_clear (Child *child)
{
  g_clear_pointer (&child->out, g_free);
  g_clear_pointer (&child->err, g_free);
}

gboolean
child_exited_ok (const Child *child)
{
  return child->ran && !child->killed && WIFEXITED (child->status) && WEXITSTATUS (child->status) == 0;
}

/* The first line of standard error that says something, for a reason. */
char *
child_first_error_line (const Child *child)
{
  g_auto(GStrv) lines = g_strsplit (child->err != NULL ? child->err : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (*g_strstrip (lines[i]) != '\0' && !g_str_has_prefix (lines[i], "sluice-run: running "))
      return g_strdup (lines[i]);
  if (child->killed)
    return g_strdup ("killed at the time limit");
  return g_strdup_printf ("exit status %d", WIFEXITED (child->status) ? WEXITSTATUS (child->status) : -1);
}

JsonObject *
child_json (const Child *child,
            const char  *what)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  if (!json_parser_load_from_data (parser, child->out, -1, &error))
    g_error ("%s printed no JSON: %s\n%s\n%s", what, error->message, child->out, child->err);
  node = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    g_error ("%s printed no JSON object", what);
  return json_object_ref (json_node_get_object (node));
}

/* A child that must succeed and print one JSON object. */
JsonObject *
run_child_json (const char * const *argv,
                const char * const *env)
{
  Child child;
  JsonObject *obj;

  child_run (argv, env, 0.0, &child);
  if (!child_exited_ok (&child))
    g_error ("%s failed: %s", argv[0], child.err);
  obj = child_json (&child, argv[0]);
  child_clear (&child);
  return obj;
}

/* This program again, for a measurement that needs a process of its own. */
JsonObject *
run_self (const char *only,
          gint64      items)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, items);
  const char *argv[] = { self, "--only", only, "--items", count, NULL };

  return run_child_json (argv, NULL);
}

/* }}} */

double
headless_run (const char *pool,
              double      limit)
{
  const char *argv[] = { bench_opt.sluice_run, pool, "--clock", "virtual", NULL };
  Child child;
  double seconds;

  child_run (argv, NULL, limit, &child);
  if (!child_exited_ok (&child))
    g_error ("sluice-run %s failed: %s", pool, child.err);
  seconds = child.wall;
  child_clear (&child);
  return seconds;
}

void
remove_in_dir (const char         *dir,
               const char * const *names,
               gsize               n_names)
{
  for (gsize i = 0; i < n_names; i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);

      g_remove (path);
    }
  g_rmdir (dir);
}

JsonObject *
app_run_stats (const char * const  *argv,
               const char * const  *env,
               double               limit,
               const char          *stats,
               const char          *what,
               char               **why)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  Child child;

  g_unlink (stats);
  child_run (argv, env, limit, &child);
  if (!child_exited_ok (&child))
    {
      *why = g_strdup_printf ("the app failed: %s", child.err != NULL ? g_strstrip (child.err) : "");
      child_clear (&child);
      return NULL;
    }
  child_clear (&child);

  if (!json_parser_load_from_file (parser, stats, &error) || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      *why = g_strdup_printf ("the app wrote no %s: %s", what, error != NULL ? error->message : "not an object");
      return NULL;
    }
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

double
stats_member (JsonObject *stats,
              const char *name)
{
  if (!json_object_has_member (stats, name))
    g_error ("the app's statistics have no %s", name);
  return json_object_get_double_member (stats, name);
}
