/* sluice-pg-uri.c: PostgreSQL URIs, checked without connecting, and the
 * secrets they carry kept out of messages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libpq's messages may quote a URI whole (its parser's errors do), so
 * every message of libpq or of the server that SluicePgStore passes on goes
 * through sluice_pg_scrub() first.
 */

#include "sluice-pg-connection-private.h"

#include <glib/gi18n-lib.h>
#include <libpq-fe.h>
#include <string.h>

static void
add_secret (GPtrArray  *secrets,
            const char *start,
            gsize       length)
{
  g_autofree char *raw = g_strndup (start, length);
  g_autofree char *decoded = g_uri_unescape_string (raw, NULL);

  if (raw[0] == '\0')
    return;
  g_ptr_array_add (secrets, g_steal_pointer (&raw));
  if (decoded != NULL && decoded[0] != '\0')
    g_ptr_array_add (secrets, g_steal_pointer (&decoded));
}

/* Longest first, so that a secret that contains another is replaced whole. */
static int
compare_longest_first (gconstpointer a,
                       gconstpointer b)
{
  gsize la = strlen (*(const char *const *) a);
  gsize lb = strlen (*(const char *const *) b);

  return la < lb ? 1 : la > lb ? -1 : 0;
}

/* The passwords a URI may carry, as written and decoded: the user info's
 * (postgresql://user:PASSWORD@host) and a password=… or sslpassword=…
 * parameter. Read by
 * hand, because libpq's own parser echoes the whole URI in its errors. */
static GPtrArray *
uri_secrets (const char *uri)
{
  GPtrArray *secrets = g_ptr_array_new_with_free_func (g_free);
  const char *authority = strstr (uri, "://");
  const char *query = strchr (uri, '?');

  if (authority != NULL)
    {
      const char *end;
      const char *at = NULL;
      const char *p;

      authority += 3;
      end = authority + strcspn (authority, "/?");
      for (p = authority; p < end; p++)
        if (*p == '@')
          at = p;
      if (at != NULL)
        {
          const char *colon = memchr (authority, ':', at - authority);

          if (colon != NULL)
            add_secret (secrets, colon + 1, at - colon - 1);
        }
    }

  if (query != NULL)
    {
      g_auto (GStrv) pairs = g_strsplit (query + 1, "&", -1);

      /* password=… and sslpassword=…, in any case (libpq refuses other
       * cases, echoing the key only). */
      for (guint i = 0; pairs[i] != NULL; i++)
        {
          const char *equals = strchr (pairs[i], '=');
          gsize key_length = equals != NULL ? (gsize) (equals - pairs[i]) : 0;

          if (key_length >= strlen ("password") &&
              g_ascii_strncasecmp (equals - strlen ("password"), "password", strlen ("password")) == 0)
            add_secret (secrets, equals + 1, strlen (equals + 1));
        }
    }

  g_ptr_array_sort (secrets, compare_longest_first);
  return secrets;
}

static char *
replace_all (const char *text,
             const char *needle,
             const char *replacement)
{
  g_auto (GStrv) parts = g_strsplit (text, needle, -1);

  return g_strjoinv (replacement, parts);
}

/**
 * sluice_pg_scrub:
 * @uri: the store's URI
 * @message: a message of libpq or of the server
 *
 * @message with the URI replaced by its description and every password the
 * URI carries replaced by `***`, and without a trailing newline.
 *
 * Returns: (transfer full): the message, safe to print
 */
char *
sluice_pg_scrub (const char *uri,
                 const char *message)
{
  g_autoptr (GPtrArray) secrets = uri_secrets (uri);
  g_autofree char *description = sluice_job_store_describe_uri (uri);
  char *text = replace_all (message, uri, description);

  for (guint i = 0; i < secrets->len; i++)
    {
      char *scrubbed = replace_all (text, g_ptr_array_index (secrets, i), "***");

      g_free (text);
      text = scrubbed;
    }
  return g_strchomp (text);
}

/**
 * sluice_pg_check_uri:
 * @uri: a `postgresql://` or `postgres://` URI
 * @error: set to %SLUICE_STORE_ERROR_INVALID_URI when libpq cannot parse it
 *
 * Parses @uri without connecting.
 *
 * Returns: whether @uri is one that libpq can use
 */
gboolean
sluice_pg_check_uri (const char  *uri,
                     GError     **error)
{
  g_autofree char *description = NULL;
  char *message = NULL;
  PQconninfoOption *options;

  if (!g_str_has_prefix (uri, "postgresql://") && !g_str_has_prefix (uri, "postgres://"))
    {
      description = sluice_job_store_describe_uri (uri);
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI,
                   /* Translators: %s is a URI without its password. */
                   _("“%s” is not a PostgreSQL URI (postgresql://…)"), description);
      return FALSE;
    }

  options = PQconninfoParse (uri, &message);
  if (options == NULL)
    {
      g_autofree char *scrubbed = sluice_pg_scrub (uri, message != NULL ? message : "out of memory");

      description = sluice_job_store_describe_uri (uri);
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI,
                   /* Translators: the first %s is a URI without its password,
                    * the second libpq's message (in English). */
                   _("“%s” is not a valid PostgreSQL URI: %s"), description, scrubbed);
      PQfreemem (message);
      return FALSE;
    }
  PQconninfoFree (options);
  return TRUE;
}
