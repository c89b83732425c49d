/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gst-ctf-elements.h"
#include "gst-ctf-error.h"

/* A new element @factory in @pipeline, or an error naming @option (the
 * command-line option that needs it; NULL: gst-ctf itself) */
GstElement *
gst_ctf_cli_add (GstElement * pipeline, const gchar * factory,
    const gchar * option, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (e == NULL) {
    if (option != NULL)
      g_set_error (error, GST_CTF_CLI_ERROR, 0,
          "Option %s is not available in this build: no `%s` element",
          option, factory);
    else
      g_set_error (error, GST_CTF_CLI_ERROR, 0,
          "The `%s` element is not available: is the gst-ctf plugin "
          "installed (or GST_PLUGIN_PATH set to its directory)?", factory);
    return NULL;
  }
  gst_bin_add (GST_BIN (pipeline), e);
  return e;
}

gboolean
gst_ctf_cli_has_property (GstElement * element, const gchar * name)
{
  return g_object_class_find_property (G_OBJECT_GET_CLASS (element),
      name) != NULL;
}

/* Sets @name from its string form (enums by nick, booleans as
 * true/false); an error naming @option when @element lacks the property
 * or refuses the value */
gboolean
gst_ctf_cli_set (GstElement * element, const gchar * name,
    const gchar * value, const gchar * option, GError ** error)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), name);
  GValue v = G_VALUE_INIT;
  const gchar *factory =
      GST_OBJECT_NAME (gst_element_get_factory (element));

  if (pspec == NULL) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "Option %s is not available in this build: `%s` has no `%s` "
        "property", option, factory, name);
    return FALSE;
  }
  g_value_init (&v, pspec->value_type);
  if (!gst_value_deserialize_with_pspec (&v, value, pspec) ||
      g_param_value_validate (pspec, &v)) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "Invalid value for %s: \"%s\" (%s %s)", option, value, factory,
        g_param_spec_get_blurb (pspec));
    g_value_unset (&v);
    return FALSE;
  }
  g_object_set_property (G_OBJECT (element), name, &v);
  g_value_unset (&v);
  return TRUE;
}
