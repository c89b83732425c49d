/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkDetails: the event's time, name, CPU and stream, then its
 * scopes (gst_ctf_gtk_event_dup_fields_variant()) as an expandable tree:
 * structures and arrays open, enumerations with their labels.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-details.h"

/* ---- one row of the tree ---- */

#define DETAILS_TYPE_NODE (details_node_get_type ())
G_DECLARE_FINAL_TYPE (DetailsNode, details_node, DETAILS, NODE, GObject)

struct _DetailsNode {
  GObject parent;
  gchar *name;
  gchar *text;
  GVariant *children;           /* a{sv} or av; NULL for a leaf */
};

G_DEFINE_FINAL_TYPE (DetailsNode, details_node, G_TYPE_OBJECT);

static void
details_node_finalize (GObject * object)
{
  DetailsNode *n = DETAILS_NODE (object);

  g_free (n->name);
  g_free (n->text);
  g_clear_pointer (&n->children, g_variant_unref);
  G_OBJECT_CLASS (details_node_parent_class)->finalize (object);
}

static void
details_node_class_init (DetailsNodeClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = details_node_finalize;
}

static void
details_node_init (DetailsNode * n)
{
}

/* A node for a value: containers open, the rest as text. */
static DetailsNode *
node_new (const gchar * name, GVariant * v)
{
  DetailsNode *n = g_object_new (DETAILS_TYPE_NODE, NULL);

  n->name = g_strdup (name);
  if (v == NULL) {
    n->text = g_strdup ("");
  } else if (g_variant_is_of_type (v, G_VARIANT_TYPE_VARDICT)) {
    n->children = g_variant_ref (v);
    n->text = g_strdup_printf ("{ %zu fields }", g_variant_n_children (v));
  } else if (g_variant_is_of_type (v, G_VARIANT_TYPE ("av"))) {
    n->children = g_variant_ref (v);
    n->text = g_strdup_printf ("[ %zu elements ]", g_variant_n_children (v));
  } else if (g_variant_is_of_type (v, G_VARIANT_TYPE ("(xas)")) ||
      g_variant_is_of_type (v, G_VARIANT_TYPE ("(tas)"))) {
    GVariant *value = g_variant_get_child_value (v, 0);
    GVariant *labels = g_variant_get_child_value (v, 1);
    const gchar **l = g_variant_get_strv (labels, NULL);
    gchar *num = g_variant_print (value, FALSE);
    gchar *joined = g_strjoinv (", ", (gchar **) l);

    n->text = l[0] ? g_strdup_printf ("%s (%s)", num, joined) :
        g_strdup_printf ("%s (no label)", num);
    g_free (joined);
    g_free (num);
    g_free (l);
    g_variant_unref (labels);
    g_variant_unref (value);
  } else if (g_variant_is_of_type (v, G_VARIANT_TYPE_VARIANT)) {
    GVariant *inner = g_variant_get_variant (v);
    DetailsNode *i = node_new (name, inner);

    g_variant_unref (inner);
    g_object_unref (n);
    return i;
  } else {
    n->text = g_variant_print (v, FALSE);
  }
  return n;
}

static GListModel *
node_children (gpointer item, gpointer data)
{
  DetailsNode *n = item;
  GListStore *store;
  GVariantIter it;
  GVariant *child;
  const gchar *key;
  guint i = 0;

  if (n->children == NULL)
    return NULL;
  store = g_list_store_new (DETAILS_TYPE_NODE);
  g_variant_iter_init (&it, n->children);
  if (g_variant_is_of_type (n->children, G_VARIANT_TYPE_VARDICT)) {
    while (g_variant_iter_next (&it, "{&sv}", &key, &child)) {
      DetailsNode *c = node_new (key, child);

      g_list_store_append (store, c);
      g_object_unref (c);
      g_variant_unref (child);
    }
  } else {
    while (g_variant_iter_next (&it, "v", &child)) {
      gchar *idx = g_strdup_printf ("[%u]", i++);
      DetailsNode *c = node_new (idx, child);

      g_list_store_append (store, c);
      g_object_unref (c);
      g_variant_unref (child);
      g_free (idx);
    }
  }
  return G_LIST_MODEL (store);
}

/* ---- the widget ---- */

struct _GstCtfGtkDetails {
  GtkWidget parent;
  GtkWidget *header;            /* time, name, CPU, stream */
  GtkWidget *scrolled;
  GtkWidget *list;
  GstCtfGtkEvent *event;
};

G_DEFINE_FINAL_TYPE (GstCtfGtkDetails, gst_ctf_gtk_details,
    GTK_TYPE_WIDGET);

enum {
  PROP_0,
  PROP_EVENT,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
setup_row (GtkSignalListItemFactory * f, GtkListItem * li, gpointer data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (value), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (name, "dim-label");
  gtk_widget_set_size_request (name, 120, -1);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), value);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (li, expander);
}

static void
bind_row (GtkSignalListItemFactory * f, GtkListItem * li, gpointer data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (li);
  GtkWidget *expander = gtk_list_item_get_child (li);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER
      (expander));
  DetailsNode *n = gtk_tree_list_row_get_item (row);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_label_set_text (GTK_LABEL (gtk_widget_get_first_child (box)),
      n->name);
  gtk_label_set_text (GTK_LABEL (gtk_widget_get_last_child (box)), n->text);
  g_object_unref (n);
}

/**
 * gst_ctf_gtk_details_set_event:
 * @details: a details widget
 * @event: (nullable): the event to show
 */
void
gst_ctf_gtk_details_set_event (GstCtfGtkDetails * details,
    GstCtfGtkEvent * event)
{
  GListStore *roots;
  GtkTreeListModel *tree;
  GtkSelectionModel *sel;

  g_return_if_fail (GST_CTF_GTK_IS_DETAILS (details));
  if (!g_set_object (&details->event, event))
    return;
  roots = g_list_store_new (DETAILS_TYPE_NODE);
  if (event != NULL) {
    GVariant *v = gst_ctf_gtk_event_dup_fields_variant (event);
    DetailsNode *all = node_new ("", v);
    GListModel *scopes = node_children (all, NULL);
    guint64 ns = gst_ctf_gtk_event_get_timestamp_ns (event);
    gchar *header = g_strdup_printf ("%02u:%02u:%02u.%09u   %s   CPU %d   "
        "stream %s   row %" G_GUINT64_FORMAT,
        (guint) (ns / 1000000000 / 3600 % 24),
        (guint) (ns / 1000000000 / 60 % 60), (guint) (ns / 1000000000 % 60),
        (guint) (ns % 1000000000), gst_ctf_gtk_event_get_name (event),
        gst_ctf_gtk_event_get_cpu (event),
        gst_ctf_gtk_event_get_stream_name (event),
        gst_ctf_gtk_event_get_index (event));

    gtk_label_set_text (GTK_LABEL (details->header), header);
    g_free (header);
    if (scopes != NULL) {
      for (guint i = 0; i < g_list_model_get_n_items (scopes); i++) {
        gpointer o = g_list_model_get_item (scopes, i);

        g_list_store_append (roots, o);
        g_object_unref (o);
      }
      g_object_unref (scopes);
    }
    g_object_unref (all);
    g_variant_unref (v);
  } else {
    gtk_label_set_text (GTK_LABEL (details->header), "No event selected");
  }
  tree = gtk_tree_list_model_new (G_LIST_MODEL (roots), FALSE, TRUE,
      node_children, NULL, NULL);
  sel = GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (tree)));
  gtk_list_view_set_model (GTK_LIST_VIEW (details->list), sel);
  g_object_unref (sel);
  g_object_notify_by_pspec (G_OBJECT (details), props[PROP_EVENT]);
}

/**
 * gst_ctf_gtk_details_get_event:
 * @details: a details widget
 *
 * Returns: (transfer none) (nullable): the event shown
 */
GstCtfGtkEvent *
gst_ctf_gtk_details_get_event (GstCtfGtkDetails * details)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_DETAILS (details), NULL);
  return details->event;
}

/**
 * gst_ctf_gtk_details_new:
 *
 * Returns: (transfer floating): a details widget showing no event
 */
GtkWidget *
gst_ctf_gtk_details_new (void)
{
  return g_object_new (GST_CTF_GTK_TYPE_DETAILS, NULL);
}

static void
gst_ctf_gtk_details_init (GstCtfGtkDetails * self)
{
  GtkListItemFactory *f = gtk_signal_list_item_factory_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager
          (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  self->header = gtk_label_new ("No event selected");
  gtk_label_set_xalign (GTK_LABEL (self->header), 0);
  /* (time, name, CPU and stream on more lines when the pane is narrow,
   * never cut) */
  gtk_label_set_wrap (GTK_LABEL (self->header), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->header), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (self->header), TRUE);
  gtk_widget_set_margin_start (self->header, 6);
  gtk_widget_set_margin_top (self->header, 4);
  gtk_widget_set_margin_bottom (self->header, 4);
  gtk_widget_set_parent (self->header, GTK_WIDGET (self));
  g_signal_connect (f, "setup", G_CALLBACK (setup_row), NULL);
  g_signal_connect (f, "bind", G_CALLBACK (bind_row), NULL);
  self->list = gtk_list_view_new (NULL, f);
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled),
      self->list);
  gtk_widget_set_vexpand (self->scrolled, TRUE);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}

static void
gst_ctf_gtk_details_dispose (GObject * object)
{
  GstCtfGtkDetails *self = GST_CTF_GTK_DETAILS (object);

  g_clear_pointer (&self->header, gtk_widget_unparent);
  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  g_clear_object (&self->event);
  G_OBJECT_CLASS (gst_ctf_gtk_details_parent_class)->dispose (object);
}

static void
gst_ctf_gtk_details_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  switch (prop_id) {
    case PROP_EVENT:
      g_value_set_object (value, GST_CTF_GTK_DETAILS (object)->event);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_gtk_details_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  switch (prop_id) {
    case PROP_EVENT:
      gst_ctf_gtk_details_set_event (GST_CTF_GTK_DETAILS (object),
          g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_gtk_details_class_init (GstCtfGtkDetailsClass * klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  GtkWidgetClass *wc = GTK_WIDGET_CLASS (klass);

  oc->dispose = gst_ctf_gtk_details_dispose;
  oc->get_property = gst_ctf_gtk_details_get_property;
  oc->set_property = gst_ctf_gtk_details_set_property;
  /**
   * GstCtfGtkDetails:event:
   *
   * The event shown, %NULL for none.
   */
  props[PROP_EVENT] = g_param_spec_object ("event", NULL, NULL,
      GST_CTF_GTK_TYPE_EVENT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (oc, N_PROPS, props);
  gtk_widget_class_set_layout_manager_type (wc, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (wc, "gstctfdetails");
}
