/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What gst-inspect-1.0 shows a new user: the plugin's origin and the
 * elements' author line, element default names after their factories,
 * property names shared across elements, and blurbs that say what a
 * property's unit and precedence are.
 */
#include <gst/check/gstcheck.h>
#include <string.h>

static const gchar *const factories[] = {
  "ctfsrc", "ctfsink", "ctftextsink", "tracecmdsrc", "timefilter", "ctfmux",
  "ctffilter", "ctfstatssink", "lttnglivesrc",
};

static const gchar *
blurb (const gchar * factory, const gchar * prop)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GParamSpec *ps;

  fail_unless (e != NULL, "no element %s", factory);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), prop);
  fail_unless (ps != NULL, "%s has no property %s", factory, prop);
  gst_object_unref (e);
  /* (the class, and so the pspec, stays: the plugin is never unloaded) */
  return g_param_spec_get_blurb (ps);
}

/* A real origin or GStreamer's "Unknown package origin", no placeholder;
 * an author line naming who maintains the elements. */
GST_START_TEST (test_origin_and_author)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (), "ctf");
  guint i;

  fail_unless (plugin != NULL);
  fail_unless (strstr (gst_plugin_get_origin (plugin), ".invalid") == NULL,
      "%s", gst_plugin_get_origin (plugin));
  fail_unless (strlen (gst_plugin_get_origin (plugin)) > 0);
  gst_object_unref (plugin);
  for (i = 0; i < G_N_ELEMENTS (factories); i++) {
    GstElementFactory *f = gst_element_factory_find (factories[i]);
    const gchar *author;

    fail_unless (f != NULL);
    author = gst_element_factory_get_metadata (f, GST_ELEMENT_METADATA_AUTHOR);
    fail_unless (strcmp (author, "gst-ctf") != 0, "%s: %s", factories[i],
        author);
    fail_unless (strstr (author, "developers") != NULL, "%s: %s",
        factories[i], author);
    gst_object_unref (f);
  }
}

GST_END_TEST;

/* Every element's default name is its factory name and a number. */
GST_START_TEST (test_default_names)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (factories); i++) {
    GstElement *e = gst_element_factory_make (factories[i], NULL);
    gchar *name;

    fail_unless (e != NULL);
    name = gst_element_get_name (e);
    fail_unless (g_str_has_prefix (name, factories[i]) &&
        g_ascii_isdigit (name[strlen (factories[i])]), "%s: %s",
        factories[i], name);
    g_free (name);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* babeltrace2's --clock-gmt sets the text sink's clock-gmt and the
 * trimmer's gmt: both names work on timefilter, for one setting. */
GST_START_TEST (test_timefilter_clock_gmt)
{
  GstElement *e = gst_element_factory_make ("timefilter", NULL);
  gboolean gmt = FALSE;

  fail_unless (e != NULL);
  g_object_set (e, "start", "1970-01-01 01:00", NULL);
  g_object_set (e, "clock-gmt", TRUE, NULL);
  g_object_get (e, "gmt", &gmt, NULL);
  fail_unless (gmt);
  {
    guint64 t = 0;

    g_object_get (e, "start-time", &t, NULL);
    fail_unless_equals_uint64 (t, 3600 * GST_SECOND);
  }
  g_object_set (e, "gmt", FALSE, NULL);
  g_object_get (e, "clock-gmt", &gmt, NULL);
  fail_unless (!gmt);
  gst_object_unref (e);
}

GST_END_TEST;

/* Blurbs a user reads in gst-inspect-1.0: ctfsrc reads several traces
 * merged; timefilter's two forms of one bound: the last one set wins
 * (and it does); tracecmdsrc's clock offset is in ns, not babeltrace2's
 * seconds. */
GST_START_TEST (test_blurbs)
{
  GstElement *e;
  gchar *s = NULL;
  guint64 t = 0;

  fail_unless (strstr (blurb ("ctfsrc", "location"), "exactly one") == NULL);
  fail_unless (strstr (blurb ("ctfsrc", "location"), "several") != NULL);
  fail_unless (strstr (blurb ("timefilter", "start"), "last wins") != NULL);
  fail_unless (strstr (blurb ("timefilter", "start-time"), "last wins"));
  fail_unless (strstr (blurb ("timefilter", "end"), "last wins") != NULL);
  fail_unless (strstr (blurb ("timefilter", "end-time"), "last wins"));
  /* the sources' clock options: seconds and nanoseconds apart, as
   * babeltrace2's --clock-offset and --clock-offset-ns */
  fail_unless (strstr (blurb ("tracecmdsrc", "clock-offset"), "Seconds"));
  fail_unless (strstr (blurb ("tracecmdsrc", "clock-offset-ns"),
          "Nanoseconds"));

  e = gst_element_factory_make ("timefilter", NULL);
  g_object_set (e, "start", "12.5", "start-time", (guint64) 7, NULL);
  g_object_get (e, "start", &s, "start-time", &t, NULL);
  fail_unless_equals_uint64 (t, 7);
  fail_unless_equals_string (s, "0.000000007");
  g_free (s);
  g_object_set (e, "start-time", (guint64) 7, "start", "12.5", NULL);
  g_object_get (e, "start-time", &t, NULL);
  fail_unless_equals_uint64 (t, 12500000000);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
inspect_suite (void)
{
  Suite *s = suite_create ("inspect");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_origin_and_author);
  tcase_add_test (tc, test_default_names);
  tcase_add_test (tc, test_timefilter_clock_gmt);
  tcase_add_test (tc, test_blurbs);
  return s;
}

GST_CHECK_MAIN (inspect);
