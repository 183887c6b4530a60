/* sluice-scenario-file.c: a scenario from a file, data in memory or a key
 * file: the size limit, the `--set` overrides, then the loader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef SluiceScenarioParser Parser;

/* ---- overrides --------------------------------------------------------- */

/* Group and key names in the format are ASCII words with '-' and '.'
 * (item.3); anything else would reach GKeyFile, which refuses it with a
 * critical and drops the override. */
static gboolean
is_override_name (const char *name)
{
  if (*name == '\0')
    return FALSE;

  for (const char *c = name; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '-' && *c != '.')
      return FALSE;

  return TRUE;
}

static gboolean
apply_overrides (GKeyFile            *keyfile,
                 const char * const  *overrides,
                 GHashTable          *overridden,
                 GError             **error)
{
  for (guint i = 0; overrides != NULL && overrides[i] != NULL; i++)
    {
      const char *text = overrides[i];
      const char *dot = strchr (text, '.');
      const char *eq = strchr (text, '=');
      g_autofree char *group = NULL;
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;

      if (dot != NULL && eq != NULL && dot < eq)
        {
          group = g_strstrip (g_strndup (text, dot - text));
          key = g_strstrip (g_strndup (dot + 1, eq - dot - 1));
          value = g_strstrip (g_strdup (eq + 1));
        }

      if (group == NULL || !is_override_name (group) || !is_override_name (key) ||
          strpbrk (value, "\r\n") != NULL)
        {
          g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_BAD_OVERRIDE,
                       /* Translators: %s is the argument of --set as typed. Keep “--set”,
                        * “group.key=value” and “pool.workers=8”: they are command syntax. */
                       _("--set “%s”: expected group.key=value, such as pool.workers=8"), text);
          return FALSE;
        }

      g_key_file_set_value (keyfile, group, key, value);
      g_hash_table_add (overridden, _sluice_scenario_override_id (group, key));
    }

  return TRUE;
}

/* ---- loading ----------------------------------------------------------- */

static void
set_too_large_error (GError     **error,
                     const char  *name)
{
  g_autofree char *size = g_format_size_full (SLUICE_SCENARIO_MAX_SIZE, G_FORMAT_SIZE_IEC_UNITS);

  g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
               /* Translators: the first %s is the file, the second the limit, such as
                * “1.0 MiB”, and %d the same in bytes. */
               _("%s: the scenario is larger than the limit of %s (%d bytes); expected a "
                 "smaller scenario file"), name, size, SLUICE_SCENARIO_MAX_SIZE);
}

static SluiceScenario *
new_from_parser (GKeyFile            *keyfile,
                 Parser              *p,
                 const char * const  *overrides,
                 GError             **error)
{
  g_autoptr(SluiceScenario) self = sluice_scenario_new ();
  g_autoptr(GHashTable) overridden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_free (self->name);
  self->name = g_strdup (p->name);
  p->overridden = overridden;

  if (!apply_overrides (keyfile, overrides, overridden, error) ||
      !_sluice_scenario_load_keyfile (self, p, keyfile, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * sluice_scenario_new_from_keyfile:
 * @keyfile: a loaded key file (modified by @overrides)
 * @name: (nullable): how error messages name the scenario
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Validates a scenario held in a #GKeyFile.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_keyfile (GKeyFile            *keyfile,
                                  const char          *name,
                                  const char * const  *overrides,
                                  GError             **error)
{
  Parser p = { name ? name : "(scenario)", NULL, NULL };

  g_return_val_if_fail (keyfile != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return new_from_parser (keyfile, &p, overrides, error);
}

/**
 * sluice_scenario_new_from_data:
 * @data: (array length=length): the text of a `.pool` file
 * @length: the length of @data, or -1 if it is nul-terminated
 * @name: (nullable): how error messages name the scenario (the file name)
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Parses and validates a scenario. Data larger than
 * %SLUICE_SCENARIO_MAX_SIZE is refused with %SLUICE_SCENARIO_ERROR_IO.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_data (const char          *data,
                               gssize               length,
                               const char          *name,
                               const char * const  *overrides,
                               GError             **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = NULL;
  Parser p = { name ? name : "(scenario)", NULL, NULL };
  gsize len;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* strnlen: a text without its end is not read past the limit. */
  len = length < 0 ? strnlen (data, SLUICE_SCENARIO_MAX_SIZE + 1) : (gsize) length;
  if (len > SLUICE_SCENARIO_MAX_SIZE)
    {
      set_too_large_error (error, p.name);
      return NULL;
    }

  if (!_sluice_scenario_check_text (p.name, data ? data : "", len, error))
    return NULL;

  text = g_strndup (data ? data : "", len);
  p.text = text;

  /* Every title[LANG] and description[LANG], not only the current
   * locale's: check_key() sees them all, and a saved scenario keeps them. */
  if (!g_key_file_load_from_data (keyfile, text, len, G_KEY_FILE_KEEP_TRANSLATIONS, &local_error))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE,
                   /* Translators: the first %s is the file, the second what GLib found
                    * wrong. Keep “[group]”, “key=value” and “#”: they show the syntax. */
                   _("%s: %s; expected [group] headers, key=value lines and # comments on "
                     "their own line"), p.name, local_error->message);
      return NULL;
    }

  if (!_sluice_scenario_check_duplicates (&p, error))
    return NULL;

  return new_from_parser (keyfile, &p, overrides, error);
}

/**
 * sluice_scenario_new_from_bytes:
 * @bytes: the contents of a `.pool` file
 * @name: (nullable): how error messages name the scenario
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Like sluice_scenario_new_from_data(), for a #GBytes (such as a resource).
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_bytes (GBytes              *bytes,
                                const char          *name,
                                const char * const  *overrides,
                                GError             **error)
{
  gsize length = 0;
  const char *data;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &length);
  return sluice_scenario_new_from_data (data ? data : "", (gssize) length, name, overrides, error);
}

static void
set_read_error (GError     **error,
                const char  *path,
                int          errsv)
{
  g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
               /* Translators: the first %s is the file, the second why it cannot be read. */
               _("%s: cannot read the scenario: %s"), path, g_strerror (errsv));
}

/* The whole of the regular file open on @fd, at most
 * SLUICE_SCENARIO_MAX_SIZE bytes whatever its size says (it may grow while
 * it is read, or be a /proc file of size 0). */
static char *
read_regular_file (int          fd,
                   const char  *path,
                   gsize       *length,
                   GError     **error)
{
  g_autofree char *data = NULL;
  gsize size = 0, allocated;
  struct stat st;

  if (fstat (fd, &st) != 0)
    {
      set_read_error (error, path, errno);
      return NULL;
    }

  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
                   /* Translators: %s is the file. */
                   _("%s: cannot read the scenario: not a regular file (a directory, a device or "
                     "a pipe); expected a scenario file"), path);
      return NULL;
    }

  /* Room for one byte more than the limit: reading it means too large. */
  allocated = (gsize) CLAMP (st.st_size, 0, SLUICE_SCENARIO_MAX_SIZE) + 1;
  data = g_malloc (allocated);
  for (;;)
    {
      gssize n;

      if (size == allocated)
        {
          if (allocated > SLUICE_SCENARIO_MAX_SIZE)
            {
              set_too_large_error (error, path);
              return NULL;
            }
          allocated = MIN (allocated * 2, (gsize) SLUICE_SCENARIO_MAX_SIZE + 1);
          data = g_realloc (data, allocated);
        }

      n = read (fd, data + size, allocated - size);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_read_error (error, path, errno);
          return NULL;
        }
      if (n == 0)
        break;
      size += (gsize) n;
    }

  *length = size;
  return g_steal_pointer (&data);
}

/* A FIFO is opened without blocking (no writer is waited for), then
 * refused like any other file that is not regular (a directory, /dev/zero). */
static char *
read_scenario_file (const char  *path,
                    gsize       *length,
                    GError     **error)
{
  char *data;
  int fd;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      set_read_error (error, path, errno);
      return NULL;
    }

  data = read_regular_file (fd, path, length, error);
  close (fd);
  return data;
}

/**
 * sluice_scenario_read_text:
 * @path: a `.pool` file
 * @length: (out): the length of the text
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Reads a scenario file's text as sluice_scenario_new_from_file() does
 * (a regular file of at most %SLUICE_SCENARIO_MAX_SIZE bytes, a FIFO
 * refused without blocking), without parsing it: for a caller that keeps
 * the text it ran, such as `sluice-run --record`, and gives it to
 * sluice_scenario_new_from_data().
 *
 * Returns: (transfer full) (nullable): the text, nul-terminated, or %NULL
 *   on error
 */
char *
sluice_scenario_read_text (const char  *path,
                           gsize       *length,
                           GError     **error)
{
  gsize size = 0;
  char *data;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (length != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = read_scenario_file (path, &size, error);
  if (data == NULL)
    return NULL;

  /* The buffer has room for one byte more than was read. */
  data = g_realloc (data, size + 1);
  data[size] = '\0';
  *length = size;
  return data;
}

/**
 * sluice_scenario_new_from_file:
 * @path: a `.pool` file
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Reads, parses and validates a scenario file. Messages name the file by
 * @path. A file that is not a regular file (a directory, a device, a FIFO)
 * or is larger than %SLUICE_SCENARIO_MAX_SIZE is refused with
 * %SLUICE_SCENARIO_ERROR_IO, without blocking and without reading more
 * than the limit.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_file (const char          *path,
                               const char * const  *overrides,
                               GError             **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = read_scenario_file (path, &length, error);
  if (data == NULL)
    return NULL;

  return sluice_scenario_new_from_data (data, (gssize) length, path, overrides, error);
}
