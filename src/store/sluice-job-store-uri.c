/* sluice-job-store-uri.c: a job store by its URI, and the URI without
 * secrets for messages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-job-store.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sluice-pg-store.h"
#include "sluice-sqlite-store.h"

/* ---- URIs ---------------------------------------------------------------- */

/* The password of `scheme://user:password@host…` (RFC 3986 userinfo). A
 * password with an unescaped '/', '?' or '#' still ends at the last '@':
 * masking too much is better than printing a secret. */
static void
mask_userinfo_password (GString *uri,
                        gsize    authority)
{
  const char *start = uri->str + authority;
  const char *end = start + strcspn (start, "/?#");
  const char *at = NULL;
  const char *colon;

  for (const char *p = start; p < end; p++)
    if (*p == '@')
      at = p;
  if (at == NULL)
    at = strrchr (start, '@');
  if (at == NULL)
    return;
  colon = memchr (start, ':', at - start);
  if (colon == NULL)
    return;
  g_string_erase (uri, colon + 1 - uri->str, at - colon - 1);
  g_string_insert (uri, colon + 1 - uri->str, "***");
}

/* Every `password=VALUE` (a URI's query, a libpq key=value string, also
 * `sslpassword=`): VALUE ends at '&' or white space, or is 'quoted'. */
static void
mask_password_keys (GString *uri)
{
  static const char key[] = "password=";
  gsize from = 0;

  for (;;)
    {
      g_autofree char *lower = g_ascii_strdown (uri->str + from, -1);
      const char *hit = strstr (lower, key);
      gsize value, end;

      if (hit == NULL)
        return;
      value = from + (hit - lower) + strlen (key);
      end = value;
      if (uri->str[end] == '\'')
        {
          for (end++; uri->str[end] != '\0' && uri->str[end] != '\''; end++)
            if (uri->str[end] == '\\' && uri->str[end + 1] != '\0')
              end++;
          if (uri->str[end] == '\'')
            end++;
        }
      else
        end += strcspn (uri->str + end, "& \t\n");
      g_string_erase (uri, value, end - value);
      g_string_insert (uri, value, "***");
      from = value + 3;
    }
}

/**
 * sluice_job_store_describe_uri:
 * @uri: (nullable): a store URI or a PostgreSQL connection string
 *
 * The store's name as messages may print it: @uri with any password
 * replaced by `***` (`postgresql://user:***@host/db`, `password=***`).
 *
 * Returns: (transfer full): the description
 */
char *
sluice_job_store_describe_uri (const char *uri)
{
  GString *out;
  const char *scheme_end;

  if (uri == NULL)
    return g_strdup ("");
  out = g_string_new (uri);
  scheme_end = strstr (out->str, "://");
  if (scheme_end != NULL)
    mask_userinfo_password (out, scheme_end - out->str + 3);
  mask_password_keys (out);
  return g_string_free (out, FALSE);
}

static gboolean
has_scheme (const char *uri,
            const char *scheme)
{
  return g_ascii_strncasecmp (uri, scheme, strlen (scheme)) == 0;
}

/**
 * sluice_job_store_open_for_uri:
 * @uri: `sqlite:FILE` (also `sqlite://FILE`, so `sqlite:///abs/path`), or
 *   `postgresql://…` / `postgres://…` (libpq's connection URI)
 * @mode: what opening may do to the database: make a job store in a new or
 *   empty one (read-write), also beside other tables (init), or nothing
 *   at all (read-only)
 * @error: set on failure: %SLUICE_STORE_ERROR_INVALID_URI for another
 *   kind of URI; the store's own errors when it cannot be opened
 *   (%SLUICE_STORE_ERROR_NOT_A_STORE when there is no job store and @mode
 *   does not allow making one). PostgreSQL connects at the first call, so
 *   its errors are that call's.
 *
 * Opens the store @uri names (docs/job-store.md, "Opening a store").
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_job_store_open_for_uri (const char          *uri,
                               SluiceJobStoreOpen   mode,
                               GError             **error)
{
  g_autofree char *described = NULL;

  g_return_val_if_fail (uri != NULL, NULL);
  g_return_val_if_fail (mode <= SLUICE_JOB_STORE_OPEN_INIT, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (has_scheme (uri, "sqlite:"))
    {
      const char *path = uri + strlen ("sqlite:");

      if (g_str_has_prefix (path, "//"))
        path += 2;
      if (*path != '\0')
        return sluice_sqlite_store_open (path, mode, error);
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI,
                   _("“%s” names no file: expected sqlite:FILE"), uri);
      return NULL;
    }
  if (has_scheme (uri, "postgresql://") || has_scheme (uri, "postgres://"))
    return sluice_pg_store_open (uri, mode, error);

  described = sluice_job_store_describe_uri (uri);
  g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI,
               _("“%s” is not a job store: expected sqlite:FILE or postgresql://…"), described);
  return NULL;
}

/**
 * sluice_job_store_new_for_uri:
 * @uri: a store URI, as sluice_job_store_open_for_uri() takes
 * @error: set on failure
 *
 * Opens the store @uri names for reading and writing
 * (%SLUICE_JOB_STORE_OPEN_READ_WRITE): a new or empty database gets the
 * job store's schema, one with other tables and no job store is refused.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_job_store_new_for_uri (const char  *uri,
                              GError     **error)
{
  return sluice_job_store_open_for_uri (uri, SLUICE_JOB_STORE_OPEN_READ_WRITE, error);
}
