/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat -> CTF: what lttng-modules 2.13 records for the same events
 * (`tracecmdsrc lttng-compat=true`).
 *
 * An event's LTTng layout is the list of its payload members, each one
 * taken from an ftrace field (as is, or converted: integer width and
 * signedness, `prio - MAX_RT_PRIO`, a command name as a 16-byte text
 * array, a block request's `rwbs` string as lttng-modules' bit mask) or
 * set to a documented fallback when the trace.dat does not hold what
 * lttng-modules records (docs/tracecmdsrc.md, "LTTng-kernel naming").
 * The trace class (gsttracecmd-trace-class.c), the direct encoder and the
 * packet writer path (gsttracecmd-packetizer.c) all follow the layout.
 * Sources: lttng-modules include/instrumentation/events/{sched,block,irq,
 * timer,kmem,net,syscalls}.h and lttng-statedump.h.
 */
#include "gsttracecmd-private.h"

#include <stdio.h>

/* MAX_RT_PRIO of the kernel: lttng-modules records a task's priority as
 * `prio - MAX_RT_PRIO` (sched.h), so a normal task is 20 where ftrace
 * says 120. */
#define LTTNG_MAX_RT_PRIO 100
/* TASK_COMM_LEN: lttng-modules' command names are char[16] text arrays */
#define LTTNG_COMM_LEN 16

/* lttng-modules' block_rq_type bits (block.h) */
enum
{
  RWBS_WRITE = 1 << 0,
  RWBS_DISCARD = 1 << 1,
  RWBS_READ = 1 << 2,
  RWBS_RAHEAD = 1 << 3,
  RWBS_BARRIER = 1 << 4,
  RWBS_SYNC = 1 << 5,
  RWBS_META = 1 << 6,
  RWBS_SECURE = 1 << 7,
  RWBS_FLUSH = 1 << 8,
  RWBS_FUA = 1 << 9,
  RWBS_PREFLUSH = 1 << 10,
};

/* lttng-modules' enumerations.  hrtimer_mode (timer.h, the labels of a
 * kernel >= 5.4; the kernel's enum hrtimer_mode values) */
static const LttngEnumValue hrtimer_mode_values[] = {
  {"HRTIMER_MODE_ABS", 0x00, 0x00},
  {"HRTIMER_MODE_REL", 0x01, 0x01},
  {"HRTIMER_MODE_PINNED", 0x02, 0x02},
  {"HRTIMER_MODE_SOFT", 0x04, 0x04},
  {"HRTIMER_MODE_HARD", 0x08, 0x08},
  {"HRTIMER_MODE_ABS_PINNED", 0x02, 0x02},
  {"HRTIMER_MODE_REL_PINNED", 0x03, 0x03},
  {"HRTIMER_MODE_ABS_SOFT", 0x04, 0x04},
  {"HRTIMER_MODE_REL_SOFT", 0x05, 0x05},
  {"HRTIMER_MODE_ABS_PINNED_SOFT", 0x06, 0x06},
  {"HRTIMER_MODE_REL_PINNED_SOFT", 0x07, 0x07},
  {"HRTIMER_MODE_ABS_HARD", 0x08, 0x08},
  {"HRTIMER_MODE_REL_HARD", 0x09, 0x09},
  {"HRTIMER_MODE_ABS_PINNED_HARD", 0x0a, 0x0a},
  {"HRTIMER_MODE_REL_PINNED_HARD", 0x0b, 0x0b},
};

static const LttngEnum hrtimer_mode = {
  hrtimer_mode_values, G_N_ELEMENTS (hrtimer_mode_values)
};

/* net.h: net_network_header, transport_header_type,
 * proto_transport_header_type (IPPROTO_ICMP 1, _TCP 6, _UDP 17) */
static const LttngEnumValue net_network_header_values[] = {
  {"_unknown", 0, 0}, {"_ipv4", 1, 1}, {"_ipv6", 2, 2},
};

static const LttngEnumValue transport_header_type_values[] = {
  {"_unknown", 0, 0}, {"_tcp", 1, 1}, {"_udp", 2, 2}, {"_icmp", 3, 3},
};

static const LttngEnumValue proto_transport_header_type_values[] = {
  {"_unknown", 0, 0}, {"_icmp", 1, 1}, {"_unknown", 2, 5}, {"_tcp", 6, 6},
  {"_unknown", 7, 16}, {"_udp", 17, 17}, {"_unknown", 18, 255},
};

static gboolean
is_op_letter (gchar c)
{
  return c == 'W' || c == 'D' || c == 'R' || c == 'F' || c == 'N';
}

/**
 * _gst_ctf_trace_dat_lttng_rwbs:
 * @s: ftrace's `rwbs` text (blk_fill_rwbs(): [F]OP[E][F][A][S][M])
 * @len: its length at most
 *
 * Returns: lttng-modules' `rwbs` bit mask for the same request.
 */
guint32
_gst_ctf_trace_dat_lttng_rwbs (const gchar * s, gsize len)
{
  guint32 m = 0;
  gsize i = 0;

  len = strnlen (s, len);
  /* a leading F before the operation is REQ_PREFLUSH */
  if (len >= 2 && s[0] == 'F' && is_op_letter (s[1])) {
    m |= RWBS_PREFLUSH;
    i = 1;
  }
  if (i < len) {
    switch (s[i]) {
      case 'W':
        m |= RWBS_WRITE;
        i++;
        break;
      case 'D':
        m |= RWBS_DISCARD;
        i++;
        if (i < len && s[i] == 'E') {
          m |= RWBS_SECURE;
          i++;
        }
        break;
      case 'R':
        m |= RWBS_READ;
        i++;
        break;
      case 'F':
        m |= RWBS_FLUSH;
        i++;
        break;
      case 'N':
        i++;
        break;
      default:
        break;
    }
  }
  for (; i < len; i++) {
    switch (s[i]) {
      case 'F':
        m |= RWBS_FUA;
        break;
      case 'A':
        m |= RWBS_RAHEAD;
        break;
      case 'S':
        m |= RWBS_SYNC;
        break;
      case 'M':
        m |= RWBS_META;
        break;
      case 'B':
        m |= RWBS_BARRIER;
        break;
      default:
        break;
    }
  }
  return m;
}

/* ---- event names ------------------------------------------------------- */

gchar *
_gst_ctf_trace_dat_lttng_event_name (const GstCtfTraceDatEventFormat * f)
{
  static const struct
  {
    const gchar *system, *name, *lttng;
  } map[] = {
    {"skb", "kfree_skb", "skb_kfree"},
    {"skb", "consume_skb", "skb_consume"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (map); i++)
    if (strcmp (f->system, map[i].system) == 0
        && strcmp (f->name, map[i].name) == 0)
      return g_strdup (map[i].lttng);
  /* net.h maps the receive events to net_if_* and net_napi_* */
  if (strcmp (f->system, "net") == 0) {
    if (g_str_has_prefix (f->name, "netif_"))
      return g_strconcat ("net_if_", f->name + 6, NULL);
    if (g_str_has_prefix (f->name, "napi_gro_"))
      return g_strconcat ("net_", f->name, NULL);
  }
  if (strcmp (f->system, "syscalls") == 0) {
    if (g_str_has_prefix (f->name, "sys_enter_"))
      return g_strconcat ("syscall_entry_", f->name + 10, NULL);
    if (g_str_has_prefix (f->name, "sys_exit_"))
      return g_strconcat ("syscall_exit_", f->name + 9, NULL);
  }
  /* lttng-modules maps these systems' events to SYSTEM_NAME
   * (softirq_entry -> irq_softirq_entry, hrtimer_start ->
   * timer_hrtimer_start, kmalloc -> kmem_kmalloc, cpu_idle ->
   * power_cpu_idle) */
  if ((strcmp (f->system, "irq") == 0 || strcmp (f->system, "timer") == 0
          || strcmp (f->system, "kmem") == 0
          || strcmp (f->system, "power") == 0)
      && !(g_str_has_prefix (f->name, f->system)
          && f->name[strlen (f->system)] == '_'))
    return g_strconcat (f->system, "_", f->name, NULL);
  return g_strdup (f->name);
}

/* ---- layouts ----------------------------------------------------------- */

static LttngField *
push (GArray * a, const gchar * name, LttngKind kind,
    const GstCtfTraceDatField * src)
{
  LttngField lf = { 0, };

  lf.name = g_strdup (name);
  lf.kind = kind;
  lf.src = src;
  lf.base = 10;
  g_array_append_val (a, lf);
  return &g_array_index (a, LttngField, a->len - 1);
}

static LttngField *
push_int (GArray * a, const gchar * name, const GstCtfTraceDatField * src,
    guint bytes, gboolean is_signed, guint base)
{
  LttngField *lf = push (a, name, src ? LK_INT : LK_ZERO, src);

  lf->bytes = bytes;
  lf->is_signed = is_signed;
  lf->base = base;
  return lf;
}

static gboolean
is_text (const GstCtfTraceDatField * f)
{
  return (f->flags & GST_CTF_TRACE_DAT_FIELD_STRING) != 0;
}

static gboolean
is_int (const GstCtfTraceDatField * f)
{
  return !(f->flags & (GST_CTF_TRACE_DAT_FIELD_STRING |
          GST_CTF_TRACE_DAT_FIELD_ARRAY | GST_CTF_TRACE_DAT_FIELD_DYNAMIC))
      && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

/* sched events: ftrace's `pid` of a task is LTTng's `tid` */
static gchar *
sched_name (const gchar * name)
{
  if (strcmp (name, "pid") == 0)
    return g_strdup ("tid");
  if (g_str_has_suffix (name, "_pid") && strcmp (name, "__pid") != 0) {
    gchar *s = g_strdup (name);
    s[strlen (s) - 3] = 't';
    return s;
  }
  return g_strdup (name);
}

/* A system call argument as lttng-modules types it (syscalls tables:
 * `int fd` a 32-bit signed integer, `size_t count` an unsigned long, a
 * pointer an unsigned long in base 16), from the C type the format file
 * gives; ftrace stores every argument in a long. */
static void
push_syscall_arg (GArray * a, const GstCtfTraceDatField * f, guint long_size)
{
  const gchar *t = f->type ? f->type : "";

  if (!is_int (f)) {
    push (a, f->name, LK_FIELD, f);
    return;
  }
  if (strchr (t, '*'))
    push_int (a, f->name, f, long_size, FALSE, 16);
  else if (strcmp (t, "int") == 0 || strcmp (t, "pid_t") == 0
      || strcmp (t, "key_serial_t") == 0 || strcmp (t, "clockid_t") == 0
      || strcmp (t, "timer_t") == 0 || strcmp (t, "mqd_t") == 0
      || strcmp (t, "rwf_t") == 0)
    push_int (a, f->name, f, 4, TRUE, 10);
  else if (strcmp (t, "unsigned int") == 0 || strcmp (t, "uid_t") == 0
      || strcmp (t, "gid_t") == 0 || strcmp (t, "qid_t") == 0
      || strcmp (t, "u32") == 0 || strcmp (t, "__u32") == 0)
    push_int (a, f->name, f, 4, FALSE, 10);
  else if (strcmp (t, "umode_t") == 0 || strcmp (t, "unsigned short") == 0)
    push_int (a, f->name, f, 2, FALSE, 10);
  else if (strcmp (t, "long") == 0 || strcmp (t, "off_t") == 0
      || strcmp (t, "loff_t") == 0 || strcmp (t, "ssize_t") == 0)
    push_int (a, f->name, f, strcmp (t, "loff_t") == 0 ? 8 : long_size,
        TRUE, 10);
  else
    push_int (a, f->name, f, f->size, FALSE, 10);
}

/* Events whose fields lttng-modules orders otherwise: these first, in
 * this order, then the other ftrace fields in the format's order. */
static const struct
{
  const gchar *event;
  const gchar *const fields[8];
} field_order[] = {
  /* net.h: skbaddr, rc, len, name (ftrace: skbaddr, len, rc, name) */
  {"net_dev_xmit", {"skbaddr", "rc", "len", "name"}},
  /* block.h block_rq: dev, sector, nr_sector, bytes, tid (added after
   * bytes), rwbs, comm (ftrace's ioprio and cmd: kept, last) */
  {"block_rq_insert", {"dev", "sector", "nr_sector", "bytes", "rwbs",
          "comm"}},
  {"block_rq_issue", {"dev", "sector", "nr_sector", "bytes", "rwbs",
          "comm"}},
  {"block_rq_merge", {"dev", "sector", "nr_sector", "bytes", "rwbs",
          "comm"}},
  /* net.h net_dev_receive_entry_template: skbaddr (ftrace's other fields
   * kept after it) */
  {"napi_gro_frags_entry", {"skbaddr"}},
  {"napi_gro_receive_entry", {"skbaddr"}},
  {"netif_receive_skb_entry", {"skbaddr"}},
  {"netif_receive_skb_list_entry", {"skbaddr"}},
  {"netif_rx_entry", {"skbaddr"}},
  {"netif_rx_ni_entry", {"skbaddr"}},
  /* kmem.h: no cache name (ftrace's comes after ptr: kept, last) */
  {"kmem_cache_alloc", {"call_site", "ptr", "bytes_req", "bytes_alloc",
          "gfp_flags", "node", "accounted"}},
};

/* kmem.h records the `struct page *` before `pfn`; ftrace keeps only the
 * pfn */
static gboolean
has_page_pointer (const GstCtfTraceDatEventFormat * f)
{
  return strcmp (f->system, "kmem") == 0
      && g_str_has_prefix (f->name, "mm_page_")
      && strcmp (f->name, "mm_page_pcpu_drain") != 0;
}

/* The format's fields in lttng-modules' order (indices into f->fields). */
static guint *
fields_in_order (const GstCtfTraceDatEventFormat * f)
{
  guint *idx = g_new (guint, MAX (f->n_fields, 1));
  gboolean *used = g_new0 (gboolean, MAX (f->n_fields, 1));
  guint i, j, k, n = 0;

  for (i = 0; i < G_N_ELEMENTS (field_order); i++) {
    if (strcmp (f->name, field_order[i].event) != 0)
      continue;
    for (k = 0; k < G_N_ELEMENTS (field_order[i].fields)
        && field_order[i].fields[k]; k++)
      for (j = 0; j < f->n_fields; j++)
        if (!used[j] && strcmp (f->fields[j].name,
                field_order[i].fields[k]) == 0) {
          used[j] = TRUE;
          idx[n++] = j;
          break;
        }
  }
  for (j = 0; j < f->n_fields; j++)
    if (!used[j])
      idx[n++] = j;
  g_free (used);
  return idx;
}

static const GstCtfTraceDatField *
find_field (const GstCtfTraceDatEventFormat * f, const gchar * name)
{
  guint i;

  for (i = 0; i < f->n_fields; i++)
    if (strcmp (f->fields[i].name, name) == 0)
      return &f->fields[i];
  return NULL;
}

/**
 * _gst_ctf_trace_dat_lttng_layout_new:
 * @f: an event format
 * @long_size: the kernel's long size in bytes
 * @with_common: the payload begins with the `common_*` fields (those but
 *   `common_type`, as they are: the formats do not share one common
 *   context)
 *
 * Returns: (transfer full): the payload of @f as lttng-modules records it
 */
LttngLayout *
_gst_ctf_trace_dat_lttng_layout_new (const GstCtfTraceDatEventFormat * f,
    guint long_size, gboolean with_common)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (LttngField));
  LttngLayout *l = g_new0 (LttngLayout, 1);
  gboolean sched = strcmp (f->system, "sched") == 0;
  gboolean block = strcmp (f->system, "block") == 0;
  gboolean syscalls = strcmp (f->system, "syscalls") == 0;
  gboolean fork = sched && strcmp (f->name, "sched_process_fork") == 0;
  gboolean kmem = strcmp (f->system, "kmem") == 0;
  gboolean hrtimer = strcmp (f->system, "timer") == 0
      && g_str_has_prefix (f->name, "hrtimer_");
  /* net_dev_template: net_dev_queue, netif_receive_skb, netif_rx */
  gboolean net_template = strcmp (f->system, "net") == 0
      && (strcmp (f->name, "net_dev_queue") == 0
      || strcmp (f->name, "netif_receive_skb") == 0
      || strcmp (f->name, "netif_rx") == 0);
  /* block.h records the current task's tid (ftrace: common_pid) in the
   * events that record its comm: after bytes (block_rq) or after rwbs
   * (block_bio, block_getrq, block_split) */
  const GstCtfTraceDatField *pid_field = NULL;
  const gchar *tid_after = NULL;
  guint *order = fields_in_order (f);
  guint i;

  if (block && find_field (f, "comm") && find_field (f, "rwbs")) {
    for (i = 0; i < f->n_common_fields; i++)
      if (strcmp (f->common_fields[i].name, "common_pid") == 0
          && is_int (&f->common_fields[i]))
        pid_field = &f->common_fields[i];
    tid_after = find_field (f, "bytes") ? "bytes" : "rwbs";
  }

  for (i = 0; with_common && i < f->n_common_fields; i++)
    if (strcmp (f->common_fields[i].name, "common_type") != 0)
      push (a, f->common_fields[i].name, LK_FIELD, &f->common_fields[i]);
  for (i = 0; i < f->n_fields; i++) {
    const GstCtfTraceDatField *x = &f->fields[order[i]];
    gchar *name = sched ? sched_name (x->name) : g_strdup (x->name);
    LttngField *lf;

    if (syscalls) {
      /* lttng-modules has no `__syscall_nr`: the event names the call */
      if (strcmp (x->name, "__syscall_nr") != 0)
        push_syscall_arg (a, x, long_size);
    } else if (is_text (x) && (g_str_has_suffix (x->name, "comm")
            || (sched && strcmp (x->name, "name") == 0))) {
      /* ctf_array_text(char, comm, ..., TASK_COMM_LEN) */
      lf = push (a, name, LK_TEXT, x);
      lf->bytes = LTTNG_COMM_LEN;
    } else if (block && strcmp (x->name, "rwbs") == 0 && is_text (x)) {
      /* blk_rwbs_ctf_integer(unsigned int, rwbs, ...) */
      lf = push (a, name, LK_RWBS, x);
      lf->bytes = 4;
    } else if (kmem && is_int (x) && strcmp (x->name, "call_site") == 0) {
      /* ctf_integer_hex(unsigned long, call_site, ...) */
      push_int (a, name, x, x->size, FALSE, 16);
    } else if (kmem && is_int (x) && strcmp (x->name, "gfp_flags") == 0) {
      /* ctf_integer(gfp_t, gfp_flags, ...): gfp_t is an unsigned int */
      push_int (a, name, x, 4, FALSE, 10);
    } else if (kmem && is_int (x) && strcmp (x->name, "pfn") == 0
        && has_page_pointer (f)) {
      /* the page pointer: not in the trace.dat (0, see the docs) */
      push_int (a, "page", NULL, long_size == 4 ? 4 : 8, FALSE, 16);
      push (a, name, LK_FIELD, x);
    } else if (sched && is_int (x) && g_str_has_suffix (x->name, "prio")) {
      lf = push_int (a, name, x, x->size, TRUE, 10);
      lf->add = -LTTNG_MAX_RT_PRIO;
    } else if (hrtimer && is_int (x) && strcmp (x->name, "mode") == 0) {
      /* ctf_enum(hrtimer_mode, unsigned int, mode, mode) */
      lf = push_int (a, name, x, 4, FALSE, 10);
      lf->enumeration = &hrtimer_mode;
    } else {
      push (a, name, LK_FIELD, x);
    }
    if (pid_field && strcmp (x->name, tid_after) == 0)
      /* ctf_integer(pid_t, tid, current->pid) */
      push_int (a, "tid", pid_field, 4, TRUE, 10);
    if (net_template && strcmp (x->name, "name") == 0) {
      /* the network header: a trace.dat holds no packet bytes, so its
       * type is _unknown (see the docs) */
      lf = push (a, "network_header_type", LK_NET_HEADER, NULL);
      lf->bytes = 1;
    }
    if (fork && is_int (x) && strcmp (x->name, "parent_pid") == 0) {
      /* parent_tid, then parent_pid (the thread group id: trace.dat does
       * not hold it; the fallback is the tid, see the docs) and the pid
       * namespace inode (unknown: 0) */
      push_int (a, "parent_pid", x, 4, TRUE, 10);
      push_int (a, "parent_ns_inum", NULL, 4, FALSE, 10);
    } else if (fork && is_int (x) && strcmp (x->name, "child_pid") == 0) {
      /* child_tid, vtids (one namespace level: the tid), child_pid,
       * child_ns_inum */
      push (a, "vtids", LK_VTIDS, x);
      push_int (a, "child_pid", x, 4, TRUE, 10);
      push_int (a, "child_ns_inum", NULL, 4, FALSE, 10);
    }
    g_free (name);
  }
  g_free (order);
  l->n = a->len;
  l->f = (LttngField *) g_array_free (a, FALSE);
  l->scratch = g_malloc0 ((gsize) MAX (l->n, 1) * LTTNG_COMM_LEN);
  return l;
}

void
_gst_ctf_trace_dat_lttng_layout_free (LttngLayout * l)
{
  guint i;

  if (!l)
    return;
  for (i = 0; i < l->n; i++)
    g_free (l->f[i].name);
  g_free (l->f);
  g_free (l->scratch);
  g_free (l);
}

static GstCtfFieldClass *
mk_int (guint bytes, gboolean is_signed, GstCtfByteOrder bo, guint base)
{
  return gst_ctf_field_class_new_integer (bytes * 8, is_signed, bo, base);
}

/* An enumeration whose container is @container (taken) */
static GstCtfFieldClass *
mk_enum (GstCtfFieldClass * container, const LttngEnum * e)
{
  guint i;

  container->type = GST_CTF_FIELD_CLASS_ENUM;
  container->enumeration.mappings = g_new0 (GstCtfEnumMapping, e->n);
  container->enumeration.n_mappings = e->n;
  for (i = 0; i < e->n; i++) {
    container->enumeration.mappings[i].label = g_strdup (e->values[i].label);
    container->enumeration.mappings[i].lower = e->values[i].lower;
    container->enumeration.mappings[i].upper = e->values[i].upper;
  }
  return container;
}

static GstCtfFieldClass *
mk_be (guint bits, guint align, guint base)
{
  GstCtfFieldClass *fc = mk_int (1, FALSE, GST_CTF_BYTE_ORDER_BE, base);

  fc->integer.size = bits;
  fc->alignment = align;
  return fc;
}

static GstCtfFieldClass *
mk_be_array (guint length, guint elem_bits, guint base)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);

  /* lttng_alignof() is 1 byte where unaligned accesses are cheap (x86,
   * the corpus traces): byte alignment, as the other members */
  fc->element = mk_be (elem_bits, 8, base);
  fc->alignment = 8;
  fc->length = length;
  return fc;
}

static GstCtfFieldClass *
mk_variant (const gchar * tag)
{
  GstCtfFieldClass *v = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_VARIANT);

  v->alignment = 1;
  v->ref_path = g_strdup (tag);
  return v;
}

static const LttngEnum net_network_header = {
  net_network_header_values, G_N_ELEMENTS (net_network_header_values)
};

static const LttngEnum transport_header_type = {
  transport_header_type_values, G_N_ELEMENTS (transport_header_type_values)
};

static const LttngEnum proto_transport_header_type = {
  proto_transport_header_type_values,
  G_N_ELEMENTS (proto_transport_header_type_values)
};

/* A big-endian member of net.h's header structures: an integer of @bits
 * aligned on @align bits, an array of @n such integers (byte-aligned),
 * or (@proto) an 8-bit integer as the transport protocol enumeration. */
typedef struct
{
  const gchar *name;
  guint8 bits;
  guint8 align;
  guint8 base;
  guint8 n;
  gboolean proto;
} NetMember;

static const NetMember net_tcp[] = {
  {"source_port", 16, 8, 10}, {"dest_port", 16, 8, 10}, {"seq", 32, 8, 10},
  {"ack_seq", 32, 8, 10}, {"data_offset", 4, 4, 10}, {"reserved", 3, 1, 10},
  {"flags", 9, 1, 16}, {"window_size", 16, 8, 10}, {"checksum", 16, 8, 16},
  {"urg_ptr", 16, 8, 10}, {NULL}
};

static const NetMember net_udp[] = {
  {"source_port", 16, 8, 10}, {"dest_port", 16, 8, 10}, {"len", 16, 8, 10},
  {"check", 16, 8, 10}, {NULL}
};

static const NetMember net_icmp[] = {
  {"type", 8, 8, 10}, {"code", 8, 8, 10}, {"checksum", 16, 8, 10},
  {"gateway", 32, 8, 10}, {NULL}
};

static const NetMember net_ipv4[] = {
  {"version", 4, 4, 10}, {"ihl", 4, 4, 10}, {"tos", 8, 8, 10},
  {"tot_len", 16, 8, 10}, {"id", 16, 8, 16}, {"frag_off", 16, 8, 10},
  {"ttl", 8, 8, 10}, {"protocol", 8, 8, 10, 0, TRUE},
  {"checksum", 16, 8, 16}, {"saddr", 8, 8, 10, 4}, {"daddr", 8, 8, 10, 4},
  {NULL}
};

static const NetMember net_ipv6[] = {
  {"version", 4, 4, 10}, {"prio", 4, 4, 10}, {"flow_lbl", 8, 8, 16, 3},
  {"payload_len", 16, 8, 10}, {"nexthdr", 8, 8, 10, 0, TRUE},
  {"hop_limit", 8, 8, 10}, {"saddr", 16, 8, 16, 8}, {"daddr", 16, 8, 16, 8},
  {NULL}
};

/* A structure of @m's members. */
static GstCtfFieldClass *
net_struct (const NetMember * m)
{
  GstCtfFieldClass *o = gst_ctf_field_class_new_struct ();

  for (; m->name; m++) {
    GstCtfFieldClass *fc;

    if (m->n)
      fc = mk_be_array (m->n, m->bits, m->base);
    else if (m->proto)
      fc = mk_enum (mk_be (m->bits, m->align, m->base),
          &proto_transport_header_type);
    else
      fc = mk_be (m->bits, m->align, m->base);
    gst_ctf_field_class_append_member (o, m->name, fc);
  }
  return o;
}

/* net.h's transport_header_type (uint8, the tracer's byte order) and
 * transport_header variant: _unknown {}, _tcp, _udp, _icmp */
static void
append_transport (GstCtfFieldClass * st, GstCtfByteOrder bo)
{
  GstCtfFieldClass *v = mk_variant ("transport_header_type");

  gst_ctf_field_class_append_member (st, "transport_header_type",
      mk_enum (mk_int (1, FALSE, bo, 10), &transport_header_type));
  gst_ctf_field_class_append_member (v, "_unknown",
      gst_ctf_field_class_new_struct ());
  gst_ctf_field_class_append_member (v, "_tcp", net_struct (net_tcp));
  gst_ctf_field_class_append_member (v, "_udp", net_struct (net_udp));
  gst_ctf_field_class_append_member (v, "_icmp", net_struct (net_icmp));
  gst_ctf_field_class_append_member (st, "transport_header", v);
}

/* net.h's network_header_type and network_header variant: _unknown {},
 * _ipv4 { iphdr, transport }, _ipv6 { ipv6hdr, transport } */
static void
append_network (GstCtfFieldClass * st, GstCtfByteOrder bo)
{
  GstCtfFieldClass *v = mk_variant ("network_header_type");
  GstCtfFieldClass *o;

  gst_ctf_field_class_append_member (st, "network_header_type",
      mk_enum (mk_int (1, FALSE, bo, 10), &net_network_header));
  gst_ctf_field_class_append_member (v, "_unknown",
      gst_ctf_field_class_new_struct ());
  o = net_struct (net_ipv4);
  append_transport (o, bo);
  gst_ctf_field_class_append_member (v, "_ipv4", o);
  o = net_struct (net_ipv6);
  append_transport (o, bo);
  gst_ctf_field_class_append_member (v, "_ipv6", o);
  gst_ctf_field_class_append_member (st, "network_header", v);
}

/**
 * _gst_ctf_trace_dat_lttng_payload:
 * @tc: the trace class being built (for value slots)
 * @l: a layout
 * @bo: the file's byte order
 *
 * Returns: (transfer full): the payload structure of @l
 */
GstCtfFieldClass *
_gst_ctf_trace_dat_lttng_payload (GstCtfTraceClass * tc, const LttngLayout * l,
    GstCtfByteOrder bo)
{
  GstCtfFieldClass *st = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
  guint i;

  st->alignment = 8;
  for (i = 0; i < l->n; i++) {
    const LttngField *lf = &l->f[i];
    GstCtfFieldClass *fc;

    switch (lf->kind) {
      case LK_FIELD:
        _gst_ctf_trace_dat_append_field (tc, st, lf->src, lf->name, bo);
        continue;
      case LK_INT:
      case LK_ZERO:
        fc = mk_int (lf->bytes, lf->is_signed, bo, lf->base);
        if (lf->enumeration)
          fc = mk_enum (fc, lf->enumeration);
        break;
      case LK_NET_HEADER:
        append_network (st, bo);
        continue;
      case LK_RWBS:
        fc = mk_int (4, FALSE, bo, 10);
        break;
      case LK_TEXT:
        fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
        fc->alignment = 8;
        fc->element = mk_int (1, FALSE, bo, 10);
        fc->element->integer.encoding = GST_CTF_ENCODING_UTF8;
        fc->length = lf->bytes;
        break;
      case LK_VTIDS:{
        /* lttng-modules names it `__vtids_length` (`_vtids_length` shown) */
        gchar *len_name = g_strdup_printf ("__%s_length", lf->name);
        GstCtfFieldClass *len_fc = mk_int (1, FALSE, bo, 10);

        len_fc->value_slot = (gint) tc->n_value_slots++;
        fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
        fc->alignment = 8;
        fc->element = mk_int (4, TRUE, bo, 10);
        fc->ref_path = g_strdup (len_name);
        fc->ref_target = len_fc;
        gst_ctf_field_class_append_member (st, len_name, len_fc);
        g_free (len_name);
        break;
      }
      default:
        g_assert_not_reached ();
    }
    gst_ctf_field_class_append_member (st, lf->name, fc);
  }
  return st;
}

static gboolean
read_src_int (GstCtfTraceDat * td, const LttngField * lf, const guint8 * data,
    gsize size, guint64 * v)
{
  *v = 0;
  return gst_ctf_trace_dat_field_read_int (td, lf->src, data, size, v);
}

/* The text of @lf's source field: its bytes up to the first NUL. */
static const gchar *
src_text (GstCtfTraceDat * td, const LttngField * lf, const guint8 * data,
    gsize size, gsize * len)
{
  guint off = 0, n = 0;

  gst_ctf_trace_dat_field_get_dynamic (td, lf->src, data, size, &off, &n);
  *len = strnlen ((const gchar *) data + off, n);
  return (const gchar *) data + off;
}

/**
 * _gst_ctf_trace_dat_lttng_int:
 * @td: a file
 * @lf: a layout member of kind LK_INT, LK_ZERO, LK_RWBS or LK_VTIDS
 * @data: (array length=size): a record
 * @size: its size
 *
 * Returns: the member's value (for LK_VTIDS, the one element)
 */
guint64
_gst_ctf_trace_dat_lttng_int (GstCtfTraceDat * td, const LttngField * lf,
    const guint8 * data, gsize size)
{
  guint64 v = 0;
  gsize len;
  const gchar *s;

  switch (lf->kind) {
    case LK_INT:
    case LK_VTIDS:
      /* ftrace keeps a system call's `int` argument in a long with the
       * upper bits clear: the value is the low bytes, sign-extended for a
       * signed member */
      read_src_int (td, lf, data, size, &v);
      v += (guint64) lf->add;
      if (lf->kind == LK_VTIDS || lf->bytes < 8) {
        guint bits = lf->kind == LK_VTIDS ? 32 : lf->bytes * 8;
        gboolean sgn = lf->kind == LK_VTIDS || lf->is_signed;

        v &= (G_GUINT64_CONSTANT (1) << bits) - 1;
        if (sgn && (v >> (bits - 1)) & 1)
          v |= ~((G_GUINT64_CONSTANT (1) << bits) - 1);
      }
      return v;
    case LK_RWBS:
      s = src_text (td, lf, data, size, &len);
      return _gst_ctf_trace_dat_lttng_rwbs (s, len);
    default:
      return 0;
  }
}

/**
 * _gst_ctf_trace_dat_lttng_text:
 * @td: a file
 * @lf: a layout member of kind LK_TEXT
 * @data: (array length=size): a record
 * @size: its size
 * @out: (out caller-allocates) (array fixed-size=16): @lf->bytes bytes:
 *   the text, cut to leave one NUL, then NULs
 */
void
_gst_ctf_trace_dat_lttng_text (GstCtfTraceDat * td, const LttngField * lf,
    const guint8 * data, gsize size, guint8 * out)
{
  gsize len;
  const gchar *s = src_text (td, lf, data, size, &len);

  memset (out, 0, lf->bytes);
  memcpy (out, s, MIN (len, (gsize) lf->bytes - 1));
}

/**
 * _gst_ctf_trace_dat_lttng_values:
 * @td: a file
 * @l: the record's layout
 * @payload_fc: the payload class _gst_ctf_trace_dat_lttng_payload() made
 * @rec: a record
 * @v: (array length=max): values (pre-order, as #GstCtfFieldValue says)
 * @max: room in @v
 * @n: (out): values written
 *
 * The packet writer path's payload values of @rec.
 *
 * Returns: FALSE when @v is too small
 */
gboolean
_gst_ctf_trace_dat_lttng_values (GstCtfTraceDat * td, LttngLayout * l,
    const GstCtfFieldClass * payload_fc, const GstCtfTraceDatRecord * rec,
    GstCtfFieldValue * v, guint max, guint * n)
{
  guint i, mi = 0, k = 0;

  if (max < 1)
    return FALSE;
  memset (&v[0], 0, sizeof (v[0]));
  v[0].fc = payload_fc;
  v[0].v.u = payload_fc->n_members;
  k = 1;
  for (i = 0; i < l->n; i++) {
    const LttngField *lf = &l->f[i];
    const GstCtfNamedFieldClass *m;
    guint8 *text;

    if (lf->kind == LK_FIELD) {
      if (!_gst_ctf_trace_dat_field_values (td, lf->src, rec,
              payload_fc->members, payload_fc->n_members, &mi, v, &k, max))
        return FALSE;
      continue;
    }
    if (mi >= payload_fc->n_members)
      return FALSE;
    m = &payload_fc->members[mi++];
    switch (lf->kind) {
      case LK_TEXT:
        /* a text array's value is its bytes (kept in the layout's scratch
         * until the event is written) */
        if (k + 1 > max || lf->bytes > LTTNG_COMM_LEN)
          return FALSE;
        text = l->scratch + (gsize) i * LTTNG_COMM_LEN;
        _gst_ctf_trace_dat_lttng_text (td, lf, rec->data, rec->size, text);
        memset (&v[k], 0, sizeof (v[k]));
        v[k].fc = m->fc;
        v[k].name = m->name;
        v[k].v.s.ptr = (const gchar *) text;
        v[k].v.s.len = lf->bytes;
        v[k].end = k + 1;
        k++;
        break;
      case LK_NET_HEADER:
        /* network_header_type 0 (_unknown), then the variant's empty
         * _unknown option */
        if (k + 3 > max || mi >= payload_fc->n_members)
          return FALSE;
        memset (&v[k], 0, 3 * sizeof (v[k]));
        v[k].fc = m->fc;
        v[k].name = m->name;
        v[k].end = k + 1;
        m = &payload_fc->members[mi++];
        if (m->fc->type != GST_CTF_FIELD_CLASS_VARIANT || m->fc->n_members < 1)
          return FALSE;
        v[k + 1].fc = m->fc;
        v[k + 1].name = m->name;
        v[k + 1].end = k + 3;
        v[k + 2].fc = m->fc->members[0].fc;
        v[k + 2].name = m->fc->members[0].name;
        v[k + 2].end = k + 3;
        k += 3;
        break;
      case LK_VTIDS:
        /* the `_vtids_length` member, then the sequence of one tid */
        if (k + 3 > max || mi >= payload_fc->n_members)
          return FALSE;
        memset (&v[k], 0, 3 * sizeof (v[k]));
        v[k].fc = m->fc;
        v[k].name = m->name;
        v[k].v.u = 1;
        v[k].end = k + 1;
        m = &payload_fc->members[mi++];
        v[k + 1].fc = m->fc;
        v[k + 1].name = m->name;
        v[k + 1].v.u = 1;
        v[k + 1].end = k + 3;
        v[k + 2].fc = m->fc->element;
        v[k + 2].v.u = _gst_ctf_trace_dat_lttng_int (td, lf, rec->data,
            rec->size);
        v[k + 2].end = k + 3;
        k += 3;
        break;
      default:
        if (k + 1 > max)
          return FALSE;
        memset (&v[k], 0, sizeof (v[k]));
        v[k].fc = m->fc;
        v[k].name = m->name;
        v[k].v.u = _gst_ctf_trace_dat_lttng_int (td, lf, rec->data,
            rec->size);
        v[k].end = k + 1;
        k++;
        break;
    }
  }
  v[0].end = k;
  *n = k;
  return TRUE;
}

/* ---- statedump ----------------------------------------------------------
 *
 * LTTng kernel traces begin with lttng_statedump_start, one
 * lttng_statedump_process_state per task, lttng_statedump_end
 * (lttng-statedump.h), so that analyses know the tasks that existed
 * before the first event.  The trace.dat's saved cmdlines give a task's
 * tid and name; what the file does not hold gets lttng-modules' "unknown"
 * values (docs/tracecmdsrc.md).  The events are in a packet of the first
 * CPU stream at the trace's first time stamp. */

/* lttng-modules' enum values (lttng-statedump-impl.c) */
#define LTTNG_USER_THREAD 0
#define LTTNG_MODE_UNKNOWN 5
#define LTTNG_SUBMODE_UNKNOWN 1
#define LTTNG_STATUS_UNNAMED 0

static GstCtfEventClass *
statedump_class (guint id, const gchar * name, guint64 sc_id)
{
  GstCtfEventClass *ec = gst_ctf_event_class_new ();

  ec->id = id;
  ec->name = g_strdup (name);
  ec->stream_class_id = sc_id;
  ec->payload = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
  ec->payload->alignment = 8;
  return ec;
}

/**
 * _gst_ctf_trace_dat_lttng_add_statedump:
 * @sc: buffer 0's stream class
 * @bo: byte order
 * @long_size: the kernel's long size
 *
 * Adds the statedump event classes (ids %LTTNG_STATEDUMP_START_ID, +1,
 * +2) unless an event format has one of those ids.
 *
 * Returns: TRUE when added
 */
gboolean
_gst_ctf_trace_dat_lttng_add_statedump (GstCtfStreamClass * sc,
    GstCtfByteOrder bo, guint long_size)
{
  static const gchar *const ints[] = { "tid", "pid", "ppid" };
  static const gchar *const states[] = { "type", "mode", "submode",
    "status"
  };
  GstCtfEventClass *ec[3];
  GstCtfFieldClass *fc;
  guint i;

  for (i = 0; i < 3; i++)
    if (gst_ctf_stream_class_find_event_class (sc,
            LTTNG_STATEDUMP_START_ID + i))
      return FALSE;
  ec[0] = statedump_class (LTTNG_STATEDUMP_START_ID, "lttng_statedump_start",
      sc->id);
  ec[1] = statedump_class (LTTNG_STATEDUMP_START_ID + 1,
      "lttng_statedump_process_state", sc->id);
  ec[2] = statedump_class (LTTNG_STATEDUMP_START_ID + 2,
      "lttng_statedump_end", sc->id);
  for (i = 0; i < G_N_ELEMENTS (ints); i++)
    gst_ctf_field_class_append_member (ec[1]->payload, ints[i],
        mk_int (4, TRUE, bo, 10));
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
  fc->alignment = 8;
  fc->element = mk_int (1, FALSE, bo, 10);
  fc->element->integer.encoding = GST_CTF_ENCODING_UTF8;
  fc->length = LTTNG_COMM_LEN;
  gst_ctf_field_class_append_member (ec[1]->payload, "name", fc);
  for (i = 0; i < G_N_ELEMENTS (states); i++)
    gst_ctf_field_class_append_member (ec[1]->payload, states[i],
        mk_int (4, TRUE, bo, 10));
  gst_ctf_field_class_append_member (ec[1]->payload, "cpu",
      mk_int (4, FALSE, bo, 10));
  gst_ctf_field_class_append_member (ec[1]->payload, "file_table_address",
      mk_int (long_size == 4 ? 4 : 8, FALSE, bo, 16));
  for (i = 0; i < 3; i++) {
    g_ptr_array_add (sc->event_classes, ec[i]);
    g_hash_table_insert (sc->event_class_by_id, &ec[i]->id, ec[i]);
  }
  return TRUE;
}

static void
zero_values (const GstCtfFieldClass * st, GstCtfFieldValue * v, guint * n)
{
  guint i;

  memset (&v[0], 0, sizeof (v[0]) * (st->n_members + 1));
  v[0].fc = st;
  v[0].v.u = st->n_members;
  for (i = 0; i < st->n_members; i++) {
    v[i + 1].fc = st->members[i].fc;
    v[i + 1].name = st->members[i].name;
    v[i + 1].end = i + 2;
  }
  v[0].end = st->n_members + 1;
  *n = st->n_members + 1;
}

/**
 * _gst_ctf_trace_dat_lttng_statedump:
 * @td: a file
 * @sc: the stream class (parsed back) of @w
 * @w: the first CPU stream's packet writer
 * @cpu: that stream's CPU
 * @t0: the trace's first clock value
 * @data: (out) (transfer none): the packet
 * @size: (out): its size
 * @n_events: (out): events in it
 * @error: return location for a %GST_CTF_ERROR
 *
 * Returns: FALSE on error (or when the common context is not all
 *   integers: then nothing is written and @size is 0)
 */
gboolean
_gst_ctf_trace_dat_lttng_statedump (GstCtfTraceDat * td,
    const GstCtfStreamClass * sc, GstCtfPacketWriter * w, guint cpu,
    guint64 t0, const guint8 ** data, gsize * size, guint * n_events,
    GError ** error)
{
  const GstCtfFieldClass *cfc = sc->event_common_context;
  const GstCtfEventClass *ec[3];
  GstCtfPacketWriterParams prm = { 0, };
  GstCtfFieldValue common[64], pv[16];
  guint n_common = 0, np, i;
  const gchar *text;
  gsize tsize, pos = 0;

  *size = 0;
  *n_events = 0;
  for (i = 0; i < 3; i++)
    if (!(ec[i] = gst_ctf_stream_class_find_event_class (sc,
                LTTNG_STATEDUMP_START_ID + i)))
      return TRUE;
  if (cfc) {
    if (cfc->n_members + 1 > G_N_ELEMENTS (common))
      return TRUE;
    for (i = 0; i < cfc->n_members; i++)
      if (cfc->members[i].fc->type != GST_CTF_FIELD_CLASS_INTEGER)
        return TRUE;
    zero_values (cfc, common, &n_common);
  }
  prm.stream_instance_id = cpu;
  prm.has_timestamp_begin = TRUE;
  prm.timestamp_begin = t0;
  if (!gst_ctf_packet_writer_begin_packet (w, &prm, NULL, 0, error))
    return FALSE;
  zero_values (ec[0]->payload, pv, &np);
  if (!gst_ctf_packet_writer_append_event (w, ec[0], t0, common, n_common,
          NULL, 0, pv, np, error))
    return FALSE;
  text = gst_ctf_trace_dat_get_cmdlines (td, &tsize);
  while (text && pos < tsize) {
    const gchar *line = text + pos, *nl, *sp;
    gsize len;
    gchar num[16], name[LTTNG_COMM_LEN];
    gint64 tid;

    nl = memchr (line, '\n', tsize - pos);
    len = nl ? (gsize) (nl - line) : tsize - pos;
    pos += len + (nl ? 1 : 0);
    /* "PID COMM" */
    sp = memchr (line, ' ', len);
    if (!sp || sp == line || (gsize) (sp - line) >= sizeof (num))
      continue;
    memcpy (num, line, sp - line);
    num[sp - line] = '\0';
    tid = g_ascii_strtoll (num, NULL, 10);
    memset (name, 0, sizeof (name));
    memcpy (name, sp + 1, MIN ((gsize) (line + len - sp - 1),
            sizeof (name) - 1));
    zero_values (ec[1]->payload, pv, &np);
    /* tid, pid (the tgid is not in the file: the tid), ppid (unknown:
     * 0), name, type, mode, submode, status, cpu, file_table_address */
    pv[1].v.u = (guint64) (gint64) (gint32) tid;
    pv[2].v.u = pv[1].v.u;
    pv[4].v.s.ptr = name;
    pv[4].v.s.len = LTTNG_COMM_LEN;
    pv[5].v.u = LTTNG_USER_THREAD;
    pv[6].v.u = LTTNG_MODE_UNKNOWN;
    pv[7].v.u = LTTNG_SUBMODE_UNKNOWN;
    pv[8].v.u = LTTNG_STATUS_UNNAMED;
    if (!gst_ctf_packet_writer_append_event (w, ec[1], t0, common, n_common,
            NULL, 0, pv, np, error))
      return FALSE;
  }
  zero_values (ec[2]->payload, pv, &np);
  if (!gst_ctf_packet_writer_append_event (w, ec[2], t0, common, n_common,
          NULL, 0, pv, np, error))
    return FALSE;
  gst_ctf_packet_writer_set_timestamp_end (w, t0);
  *n_events = gst_ctf_packet_writer_get_event_count (w);
  *data = gst_ctf_packet_writer_finish_packet (w, size, error);
  return *data != NULL;
}
