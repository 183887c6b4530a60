/* sluice-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-error.h"

/**
 * sluice_error_quark:
 *
 * The error domain of the pool's own errors; use %SLUICE_ERROR.
 *
 * Returns: the quark of the %SLUICE_ERROR domain
 *
 * Since: 1.0
 */
G_DEFINE_QUARK (sluice-error-quark, sluice_error)

/**
 * sluice_named_error_domain_quark:
 *
 * The domain of errors known by a type name only; use %SLUICE_NAMED_ERROR.
 *
 * Returns: the quark of the %SLUICE_NAMED_ERROR domain
 *
 * Since: 1.0
 */
/* Not sluice_named_error_quark(): GObject Introspection takes every
 * *_error_quark() for a domain with an enum of codes, and this domain's
 * codes are handed out at run time by sluice_named_error_code(). */
G_DEFINE_QUARK (sluice-named-error-quark, sluice_named_error_domain)

G_DEFINE_ENUM_TYPE (SluiceError, sluice_error,
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_FAILED, "failed"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_INVALID_CONFIG, "invalid-config"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_SINGLE_USE, "single-use"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_TIMEOUT, "timeout"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_HANDLER_CANCELLED, "handler-cancelled"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_SOURCE_CANCELLED, "source-cancelled"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_GROUP, "group"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_CLOSED, "closed"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_PENDING, "pending"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_DEADLOCK, "deadlock"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_NO_RESULT, "no-result"),
  G_DEFINE_ENUM_VALUE (SLUICE_ERROR_INVALID_EVENT, "invalid-event"))

typedef struct
{
  GQuark  domain;
  gint    code;
} TypeKey;

static GMutex      registry_lock;
static GPtrArray  *named_types;     /* code → interned name */
static GHashTable *registered;      /* TypeKey → interned name */

static guint
type_key_hash (gconstpointer key)
{
  const TypeKey *k = key;

  return k->domain * 31 + (guint) k->code;
}

static gboolean
type_key_equal (gconstpointer a,
                gconstpointer b)
{
  const TypeKey *ka = a, *kb = b;

  return ka->domain == kb->domain && ka->code == kb->code;
}

/**
 * sluice_named_error_code:
 * @type_name: a type name such as `ValueError`
 *
 * Gives the code that stands for @type_name in the %SLUICE_NAMED_ERROR
 * domain. The same name always gets the same code in one process.
 * Thread-safe.
 *
 * Returns: the code
 *
 * Since: 1.0
 */
gint
sluice_named_error_code (const char *type_name)
{
  const char *interned;
  gint code;

  g_return_val_if_fail (type_name != NULL, -1);

  interned = g_intern_string (type_name);

  g_mutex_lock (&registry_lock);
  if (named_types == NULL)
    named_types = g_ptr_array_new ();
  for (code = 0; code < (gint) named_types->len; code++)
    if (g_ptr_array_index (named_types, code) == interned)
      break;
  if (code == (gint) named_types->len)
    g_ptr_array_add (named_types, (gpointer) interned);
  g_mutex_unlock (&registry_lock);

  return code;
}

/**
 * sluice_named_error_new:
 * @type_name: the error's type name, such as `ConnectionError`
 * @format: printf()-style format for the message
 * @...: arguments for @format
 *
 * Makes an error of a type known only by its name. Bindings, which cannot
 * call a variadic function, use sluice_named_error_new_literal().
 *
 * Returns: (transfer full): a new #GError
 *
 * Since: 1.0
 */
GError *
sluice_named_error_new (const char *type_name,
                        const char *format,
                        ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  return g_error_new_literal (SLUICE_NAMED_ERROR,
                              sluice_named_error_code (type_name),
                              message);
}

/**
 * sluice_named_error_new_literal:
 * @type_name: the error's type name, such as `ConnectionError`
 * @message: the error's message, taken as it is
 *
 * Makes an error of a type known only by its name, like
 * sluice_named_error_new() but with a message that is not a format, for
 * bindings and for messages that may contain `%`.
 *
 * Returns: (transfer full): a new #GError
 *
 * Since: 1.0
 */
GError *
sluice_named_error_new_literal (const char *type_name,
                                const char *message)
{
  g_return_val_if_fail (message != NULL, NULL);

  return g_error_new_literal (SLUICE_NAMED_ERROR,
                              sluice_named_error_code (type_name),
                              message);
}

/**
 * sluice_error_register_type_name:
 * @domain: an error domain
 * @code: a code in @domain
 * @type_name: the name users see for errors of this domain and code
 *
 * Names an error type of another library, so that it can be listed in
 * #SluicePool:retryable and shows its name in reports. Thread-safe.
 *
 * Since: 1.0
 */
void
sluice_error_register_type_name (GQuark      domain,
                                 gint        code,
                                 const char *type_name)
{
  TypeKey *key;

  g_return_if_fail (type_name != NULL);

  key = g_new (TypeKey, 1);
  key->domain = domain;
  key->code = code;

  g_mutex_lock (&registry_lock);
  if (registered == NULL)
    registered = g_hash_table_new_full (type_key_hash, type_key_equal, g_free, NULL);
  g_hash_table_replace (registered, key, (gpointer) g_intern_string (type_name));
  g_mutex_unlock (&registry_lock);
}

static const char *
lookup_registered (const GError *error)
{
  TypeKey key = { error->domain, error->code };
  const char *name = NULL;

  g_mutex_lock (&registry_lock);
  if (error->domain == SLUICE_NAMED_ERROR)
    {
      if (named_types != NULL && error->code >= 0 && error->code < (gint) named_types->len)
        name = g_ptr_array_index (named_types, error->code);
    }
  else if (registered != NULL)
    name = g_hash_table_lookup (registered, &key);
  g_mutex_unlock (&registry_lock);

  return name;
}

/**
 * sluice_error_type_name:
 * @error: an error
 *
 * Gives the type name of @error as users see it. The pool's own errors are
 * `TimeoutError` and `RuntimeError`; %G_IO_ERROR_CANCELLED is
 * `CancelledError`; other errors show their registered name, or
 * `domain:code` when they have none.
 *
 * Returns: (transfer none): an interned string
 *
 * Since: 1.0
 */
const char *
sluice_error_type_name (const GError *error)
{
  const char *name;

  g_return_val_if_fail (error != NULL, NULL);

  if (error->domain == SLUICE_ERROR)
    {
      switch ((SluiceError) error->code)
        {
        case SLUICE_ERROR_TIMEOUT:
          return "TimeoutError";
        case SLUICE_ERROR_HANDLER_CANCELLED:
        case SLUICE_ERROR_SOURCE_CANCELLED:
        case SLUICE_ERROR_SINGLE_USE:
        case SLUICE_ERROR_NO_RESULT:
          return "RuntimeError";
        case SLUICE_ERROR_INVALID_CONFIG:
        case SLUICE_ERROR_INVALID_EVENT:
          return "ValueError";
        case SLUICE_ERROR_GROUP:
          return "ExceptionGroup";
        case SLUICE_ERROR_FAILED:
        case SLUICE_ERROR_CLOSED:
        case SLUICE_ERROR_PENDING:
        case SLUICE_ERROR_DEADLOCK:
        default:
          break;
        }
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "CancelledError";

  name = lookup_registered (error);
  if (name != NULL)
    return name;

  {
    g_autofree char *fallback = g_strdup_printf ("%s:%d",
                                                 g_quark_to_string (error->domain),
                                                 error->code);
    return g_intern_string (fallback);
  }
}

/**
 * sluice_repr_string:
 * @text: a UTF-8 string
 *
 * Quotes @text the way Python's repr() quotes a str: single quotes unless
 * the text holds a single quote and no double quote, with backslash escapes
 * for the quote, backslashes and control characters.
 *
 * Returns: (transfer full): the quoted text
 *
 * Since: 1.0
 */
char *
sluice_repr_string (const char *text)
{
  GString *out;
  char quote;
  const char *p;

  g_return_val_if_fail (text != NULL, NULL);

  quote = (strchr (text, '\'') != NULL && strchr (text, '"') == NULL) ? '"' : '\'';
  out = g_string_new (NULL);
  g_string_append_c (out, quote);

  for (p = text; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c == (guchar) quote || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, (char) c);
    }

  g_string_append_c (out, quote);
  return g_string_free (out, FALSE);
}

/**
 * sluice_error_repr:
 * @error: an error
 *
 * Formats @error like Python's repr() of an exception:
 * `TypeName('message')`, for example `TimeoutError('item timed out')`.
 *
 * Returns: (transfer full): the text
 *
 * Since: 1.0
 */
char *
sluice_error_repr (const GError *error)
{
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (error != NULL, NULL);

  quoted = sluice_repr_string (error->message != NULL ? error->message : "");
  return g_strdup_printf ("%s(%s)", sluice_error_type_name (error), quoted);
}
