/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng live viewer protocol client (lttng-relayd's viewer port, lttng-tools
 * `doc/live-reading-protocol.md`): one TCP connection, big-endian packed
 * messages, a 16-byte request header {u64 data_size, u32 cmd,
 * u32 cmd_version} before each request's payload.  The protocol has no
 * authentication: a viewer port belongs on loopback or a trusted network.
 */
#pragma once

#include <gio/gio.h>
#include "gstctf-version.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GST_CTF_LIVE_DEFAULT_PORT:
 *
 * lttng-relayd's default viewer port.
 */
#define GST_CTF_LIVE_DEFAULT_PORT 5344

/**
 * GST_CTF_LIVE_MAJOR:
 *
 * The protocol major version spoken (peers with another major are refused).
 */
#define GST_CTF_LIVE_MAJOR 2
/**
 * GST_CTF_LIVE_MINOR:
 *
 * The highest minor version spoken: 15 (lttng-tools 2.15: LIST_SESSIONS
 * with variable-length names and a trace format).  The connection uses the
 * lower minor of both peers.
 */
#define GST_CTF_LIVE_MINOR 15

/**
 * GST_CTF_LIVE_HEADER_SIZE:
 *
 * Bytes of the request header.
 */
#define GST_CTF_LIVE_HEADER_SIZE 16

/* Bounds on what a peer may announce (checked before anything is
 * allocated for it). */
#define GST_CTF_LIVE_MAX_SESSIONS 65536
#define GST_CTF_LIVE_MAX_STREAMS 65536
#define GST_CTF_LIVE_MAX_NAME 4096
/**
 * GST_CTF_LIVE_MAX_METADATA_REPLY:
 *
 * Largest metadata reply accepted (bytes).
 */
#define GST_CTF_LIVE_MAX_METADATA_REPLY (256u << 20)

/**
 * GstCtfLiveCommand:
 * @GST_CTF_LIVE_CMD_CONNECT: version handshake
 * @GST_CTF_LIVE_CMD_LIST_SESSIONS: the relay's sessions
 * @GST_CTF_LIVE_CMD_ATTACH_SESSION: attach to a session, get its streams
 * @GST_CTF_LIVE_CMD_GET_NEXT_INDEX: next packet index of a data stream
 * @GST_CTF_LIVE_CMD_GET_PACKET: bytes of a data stream
 * @GST_CTF_LIVE_CMD_GET_METADATA: new metadata bytes of a trace
 * @GST_CTF_LIVE_CMD_GET_NEW_STREAMS: streams added since the last ask
 * @GST_CTF_LIVE_CMD_CREATE_SESSION: create the viewer session
 * @GST_CTF_LIVE_CMD_DETACH_SESSION: detach from one session
 *
 * Request commands (`enum lttng_viewer_command`).
 */
typedef enum {
  GST_CTF_LIVE_CMD_CONNECT = 1,
  GST_CTF_LIVE_CMD_LIST_SESSIONS = 2,
  GST_CTF_LIVE_CMD_ATTACH_SESSION = 3,
  GST_CTF_LIVE_CMD_GET_NEXT_INDEX = 4,
  GST_CTF_LIVE_CMD_GET_PACKET = 5,
  GST_CTF_LIVE_CMD_GET_METADATA = 6,
  GST_CTF_LIVE_CMD_GET_NEW_STREAMS = 7,
  GST_CTF_LIVE_CMD_CREATE_SESSION = 8,
  GST_CTF_LIVE_CMD_DETACH_SESSION = 9,
} GstCtfLiveCommand;

/* Reply statuses, as on the wire. */
typedef enum {
  GST_CTF_LIVE_ATTACH_OK = 1,
  GST_CTF_LIVE_ATTACH_ALREADY = 2,
  GST_CTF_LIVE_ATTACH_UNK = 3,
  GST_CTF_LIVE_ATTACH_NOT_LIVE = 4,
  GST_CTF_LIVE_ATTACH_SEEK_ERR = 5,
  GST_CTF_LIVE_ATTACH_NO_SESSION = 6,
} GstCtfLiveAttachStatus;

typedef enum {
  GST_CTF_LIVE_INDEX_OK = 1,
  GST_CTF_LIVE_INDEX_RETRY = 2,
  GST_CTF_LIVE_INDEX_HUP = 3,
  GST_CTF_LIVE_INDEX_ERR = 4,
  GST_CTF_LIVE_INDEX_INACTIVE = 5,
  GST_CTF_LIVE_INDEX_EOF = 6,
} GstCtfLiveIndexStatus;

typedef enum {
  GST_CTF_LIVE_PACKET_OK = 1,
  GST_CTF_LIVE_PACKET_RETRY = 2,
  GST_CTF_LIVE_PACKET_ERR = 3,
  GST_CTF_LIVE_PACKET_EOF = 4,
} GstCtfLivePacketStatus;

typedef enum {
  GST_CTF_LIVE_METADATA_OK = 1,
  GST_CTF_LIVE_METADATA_NO_NEW = 2,
  GST_CTF_LIVE_METADATA_ERR = 3,
} GstCtfLiveMetadataStatus;

typedef enum {
  GST_CTF_LIVE_NEW_STREAMS_OK = 1,
  GST_CTF_LIVE_NEW_STREAMS_NO_NEW = 2,
  GST_CTF_LIVE_NEW_STREAMS_ERR = 3,
  GST_CTF_LIVE_NEW_STREAMS_HUP = 4,
} GstCtfLiveNewStreamsStatus;

typedef enum {
  GST_CTF_LIVE_CREATE_SESSION_OK = 1,
  GST_CTF_LIVE_CREATE_SESSION_ERR = 2,
} GstCtfLiveCreateSessionStatus;

typedef enum {
  GST_CTF_LIVE_DETACH_OK = 1,
  GST_CTF_LIVE_DETACH_UNK = 2,
  GST_CTF_LIVE_DETACH_ERR = 3,
} GstCtfLiveDetachStatus;

/**
 * GstCtfLiveFlags:
 * @GST_CTF_LIVE_FLAG_NEW_METADATA: new metadata must be fetched before the
 *   packet can be read
 * @GST_CTF_LIVE_FLAG_NEW_STREAM: streams were added (GET_NEW_STREAMS)
 *
 * Flags of GET_NEXT_INDEX and GET_PACKET replies.
 */
typedef enum {
  GST_CTF_LIVE_FLAG_NEW_METADATA = 1 << 0,
  GST_CTF_LIVE_FLAG_NEW_STREAM = 1 << 1,
} GstCtfLiveFlags;

/**
 * GstCtfLiveSeek:
 * @GST_CTF_LIVE_SEEK_BEGINNING: from the oldest data the relay still has
 * @GST_CTF_LIVE_SEEK_LAST: from the next packet the relay receives
 *
 * Where ATTACH_SESSION starts.
 */
typedef enum {
  GST_CTF_LIVE_SEEK_BEGINNING = 1,
  GST_CTF_LIVE_SEEK_LAST = 2,
} GstCtfLiveSeek;

/**
 * GstCtfLiveTraceFormat:
 * @GST_CTF_LIVE_TRACE_FORMAT_CTF_1_8: CTF 1.8 (the only one before minor 15)
 * @GST_CTF_LIVE_TRACE_FORMAT_CTF_2: CTF 2
 */
typedef enum {
  GST_CTF_LIVE_TRACE_FORMAT_CTF_1_8 = 0,
  GST_CTF_LIVE_TRACE_FORMAT_CTF_2 = 1,
} GstCtfLiveTraceFormat;

/**
 * GstCtfLiveSession:
 * @id: relay session id
 * @live_timer: the session's live timer (µs; 0: not a live session)
 * @clients: viewers attached
 * @streams: streams
 * @hostname: the traced host's name
 * @session_name: the session's name
 * @trace_format: a #GstCtfLiveTraceFormat (CTF 1.8 below minor 15)
 *
 * One entry of LIST_SESSIONS.  Free with gst_ctf_live_session_free().
 */
typedef struct {
  guint64 id;
  guint32 live_timer;
  guint32 clients;
  guint32 streams;
  gchar *hostname;
  gchar *session_name;
  guint32 trace_format;
} GstCtfLiveSession;

/**
 * GstCtfLiveStream:
 * @id: relay stream id
 * @ctf_trace_id: the CTF trace it belongs to (one metadata per trace)
 * @metadata: whether it is the trace's metadata stream
 * @path_name: the trace's path on the relay (e.g. `H/S/ust/uid/0/64-bit`)
 * @channel_name: the stream file name (e.g. `channel0_0`, `metadata`)
 *
 * One stream of ATTACH_SESSION or GET_NEW_STREAMS.
 */
typedef struct {
  guint64 id;
  guint64 ctf_trace_id;
  gboolean metadata;
  gchar *path_name;
  gchar *channel_name;
} GstCtfLiveStream;

/**
 * GstCtfLiveIndex:
 * @offset: byte offset of the packet in the stream
 * @packet_size: packet size (bits)
 * @content_size: content size (bits)
 * @timestamp_begin: packet begin (clock cycles)
 * @timestamp_end: packet end; for %GST_CTF_LIVE_INDEX_INACTIVE, the time
 *   up to which the stream has nothing (clock cycles)
 * @events_discarded: discarded events counter
 * @stream_id: the CTF stream class id
 * @status: a #GstCtfLiveIndexStatus
 * @flags: #GstCtfLiveFlags
 *
 * A GET_NEXT_INDEX reply.
 */
typedef struct {
  guint64 offset;
  guint64 packet_size;
  guint64 content_size;
  guint64 timestamp_begin;
  guint64 timestamp_end;
  guint64 events_discarded;
  guint64 stream_id;
  guint32 status;
  guint32 flags;
} GstCtfLiveIndex;

GST_CTF_API void gst_ctf_live_session_free (GstCtfLiveSession * s);
GST_CTF_API void gst_ctf_live_stream_free (GstCtfLiveStream * s);

/**
 * gst_ctf_live_parse_url:
 * @url: `net://HOST[:PORT][/host/TRACER_HOST/SESSION]` (also `net4://`)
 * @relay_host: (out) (transfer full): HOST
 * @port: (out): PORT, %GST_CTF_LIVE_DEFAULT_PORT when absent
 * @tracer_host: (out) (optional) (nullable) (transfer full): TRACER_HOST
 * @session: (out) (optional) (nullable) (transfer full): SESSION
 * @error: return location for a %GST_CTF_ERROR_LIVE error
 *
 * Splits a babeltrace2-style live URL.  Without the `/host/...` part,
 * @tracer_host and @session are %NULL (a listing URL).
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_live_parse_url (const gchar * url,
    gchar ** relay_host, guint16 * port, gchar ** tracer_host,
    gchar ** session, GError ** error);

/* -- reply parsing over any byte source (used by the client; fuzzed) -- */

/**
 * GstCtfLiveReadFunc:
 * @ctx: the source
 * @buf: (out caller-allocates) (array length=n): where to put the bytes
 * @n: exactly this many bytes are wanted
 * @error: return location for a #GError
 *
 * Reads exactly @n bytes, or fails (end of stream is an error).
 *
 * Returns: %TRUE when @n bytes were read
 */
typedef gboolean (*GstCtfLiveReadFunc) (gpointer ctx, guint8 * buf, gsize n,
    GError ** error);

/**
 * GstCtfLiveReply:
 * @status: the reply's status (a Gst*Status of the command)
 * @flags: #GstCtfLiveFlags (GET_PACKET)
 * @sessions: (element-type GstCtfLiveSession): LIST_SESSIONS
 * @streams: (element-type GstCtfLiveStream): ATTACH_SESSION and
 *   GET_NEW_STREAMS
 * @data: (nullable): GET_METADATA and GET_PACKET bytes
 * @index: GET_NEXT_INDEX
 * @major: CONNECT: the peer's major version
 * @minor: CONNECT: the peer's minor version
 * @viewer_session_id: CONNECT: the viewer session id the relay gave
 *
 * A parsed reply.  Clear with gst_ctf_live_reply_clear().
 */
typedef struct {
  guint32 status;
  guint32 flags;
  GPtrArray *sessions;
  GPtrArray *streams;
  GBytes *data;
  GstCtfLiveIndex index;
  guint32 major;
  guint32 minor;
  guint64 viewer_session_id;
} GstCtfLiveReply;

GST_CTF_API void gst_ctf_live_reply_clear (GstCtfLiveReply * reply);

/**
 * gst_ctf_live_read_reply:
 * @cmd: the command the reply answers
 * @minor: the connection's minor version (LIST_SESSIONS layout)
 * @max_len: GET_PACKET: the length asked (the reply may not exceed it)
 * @read: reads bytes from the connection
 * @ctx: for @read
 * @reply: (out caller-allocates): the reply, zeroed first
 * @error: return location for a %GST_CTF_ERROR_LIVE error (or @read's)
 *
 * Reads and checks one reply.  Every count and length is checked against
 * the protocol's bounds (GST_CTF_LIVE_MAX_*) before anything is allocated
 * for it, and bytes are allocated only as they arrive.
 *
 * Returns: %TRUE on success (whatever the reply's status)
 */
GST_CTF_API gboolean gst_ctf_live_read_reply (GstCtfLiveCommand cmd,
    guint32 minor, guint32 max_len, GstCtfLiveReadFunc read, gpointer ctx,
    GstCtfLiveReply * reply, GError ** error);

/**
 * gst_ctf_live_encode_request:
 * @cmd: the command
 * @payload: (array length=payload_len) (nullable): its payload (already
 *   big-endian)
 * @payload_len: bytes
 *
 * Returns: (transfer full): header + payload, one message to send in one
 *   write
 */
GST_CTF_API GBytes *gst_ctf_live_encode_request (GstCtfLiveCommand cmd,
    const guint8 * payload, gsize payload_len);

/* -- metadata reassembly -- */

/**
 * GstCtfLiveMetadata:
 *
 * Collects the metadata bytes of one trace as GET_METADATA hands them out
 * (in arbitrary pieces) and gives the text of the complete part.
 */
typedef struct _GstCtfLiveMetadata GstCtfLiveMetadata;

GST_CTF_API GstCtfLiveMetadata *gst_ctf_live_metadata_new (void);
GST_CTF_API void gst_ctf_live_metadata_free (GstCtfLiveMetadata * m);
GST_CTF_API void gst_ctf_live_metadata_append (GstCtfLiveMetadata * m,
    const guint8 * data, gsize size);
/**
 * gst_ctf_live_metadata_get_text:
 * @m: the collected metadata
 * @origin: (nullable): a name for error messages
 * @error: return location for a %GST_CTF_ERROR error
 *
 * The text (TSDL, or CTF 2 JSON fragments) of the complete metadata
 * packets received so far (a trailing incomplete packet waits for its
 * end), or of all the bytes when the metadata is not packetized.
 *
 * Returns: (transfer full) (nullable): the text; %NULL with no error when
 *   no complete packet has arrived yet; %NULL with @error set when a
 *   packet is corrupt
 */
GST_CTF_API gchar *gst_ctf_live_metadata_get_text (GstCtfLiveMetadata * m,
    const gchar * origin, GError ** error);

/* -- the client -- */

/**
 * GstCtfLiveClient:
 *
 * A connection to a relay's viewer port.  Blocking calls; every receive
 * waits at most the timeout given to gst_ctf_live_client_connect() and
 * ends at once when the #GCancellable is cancelled.  Not thread-safe.
 */
typedef struct _GstCtfLiveClient GstCtfLiveClient;

/**
 * gst_ctf_live_client_connect:
 * @host: relay host
 * @port: viewer port
 * @timeout_ms: longest wait for a reply (0: none)
 * @cancellable: (nullable): cancels connecting and every later call
 * @error: return location for a %GST_CTF_ERROR_LIVE error
 *
 * Connects (TCP_NODELAY), makes the CONNECT handshake (major 2, the lower
 * minor of both peers) and creates the viewer session (CREATE_SESSION).
 *
 * Returns: (transfer full) (nullable): the client
 */
GST_CTF_API GstCtfLiveClient *gst_ctf_live_client_connect (const gchar * host,
    guint16 port, guint timeout_ms, GCancellable * cancellable,
    GError ** error);
GST_CTF_API void gst_ctf_live_client_free (GstCtfLiveClient * c);
/**
 * gst_ctf_live_client_get_minor:
 * @c: a client
 *
 * Returns: the minor version in use
 */
GST_CTF_API guint32 gst_ctf_live_client_get_minor (GstCtfLiveClient * c);

/**
 * gst_ctf_live_client_request:
 * @c: a client
 * @cmd: the command
 * @payload: (array length=payload_len) (nullable): big-endian payload
 * @payload_len: bytes
 * @max_len: GET_PACKET: the length asked
 * @reply: (out caller-allocates): the reply
 * @error: return location for a %GST_CTF_ERROR_LIVE error
 *
 * Sends one request (header and payload in one write) and reads its reply.
 *
 * Returns: %TRUE when a valid reply came
 */
GST_CTF_API gboolean gst_ctf_live_client_request (GstCtfLiveClient * c,
    GstCtfLiveCommand cmd, const guint8 * payload, gsize payload_len,
    guint32 max_len, GstCtfLiveReply * reply, GError ** error);

/* Typed requests (each a gst_ctf_live_client_request()). */
GST_CTF_API gboolean gst_ctf_live_client_list_sessions (GstCtfLiveClient * c,
    GstCtfLiveReply * reply, GError ** error);
GST_CTF_API gboolean gst_ctf_live_client_attach (GstCtfLiveClient * c,
    guint64 session_id, GstCtfLiveSeek seek, GstCtfLiveReply * reply,
    GError ** error);
GST_CTF_API gboolean gst_ctf_live_client_get_new_streams (GstCtfLiveClient *
    c, guint64 session_id, GstCtfLiveReply * reply, GError ** error);
GST_CTF_API gboolean gst_ctf_live_client_get_metadata (GstCtfLiveClient * c,
    guint64 stream_id, GstCtfLiveReply * reply, GError ** error);
GST_CTF_API gboolean gst_ctf_live_client_get_next_index (GstCtfLiveClient *
    c, guint64 stream_id, GstCtfLiveReply * reply, GError ** error);
GST_CTF_API gboolean gst_ctf_live_client_get_packet (GstCtfLiveClient * c,
    guint64 stream_id, guint64 offset, guint32 len, GstCtfLiveReply * reply,
    GError ** error);
GST_CTF_API gboolean gst_ctf_live_client_detach (GstCtfLiveClient * c,
    guint64 session_id, GstCtfLiveReply * reply, GError ** error);

/**
 * gst_ctf_live_list_sessions:
 * @url: `net://HOST[:PORT]` (a `/host/...` part is ignored)
 * @timeout_ms: longest wait for the relay (0: none)
 * @cancellable: (nullable): cancels the listing
 * @error: return location for a %GST_CTF_ERROR_LIVE error
 *
 * Connects to the relay, lists its sessions and disconnects, as
 * `babeltrace2 -i lttng-live net://HOST` does.
 *
 * Returns: (transfer container) (element-type GstCtfLiveSession): the
 *   sessions, or %NULL
 */
GST_CTF_API GPtrArray *gst_ctf_live_list_sessions (const gchar * url,
    guint timeout_ms, GCancellable * cancellable, GError ** error);

G_END_DECLS
