/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat v7 decompression (trace-cmd.dat.v7(5) "COMPRESSION FORMAT OF
 * THE FILE SECTIONS" / "... OF THE TRACE DATA").  Each compressed block
 * declares its compressed and inflated sizes; both are checked by the
 * callers, and the inflated size must come out exactly.
 */
#include "gsttracecmd-private.h"

#include <zlib.h>
#include <zstd.h>

struct _TdInflater {
  ZSTD_DCtx *zstd;              /* made at the first zstd block */
};

TdInflater *
td_inflater_new (void)
{
  return g_new0 (TdInflater, 1);
}

void
td_inflater_free (TdInflater * z)
{
  if (z == NULL)
    return;
  ZSTD_freeDCtx (z->zstd);
  g_free (z);
}

gboolean
td_decompress (GstCtfTraceDatCompression c, TdInflater * z,
    const guint8 * in, gsize in_size, guint8 * out, gsize out_size,
    const gchar * origin, guint64 offset, GError ** error)
{
  switch (c) {
    case GST_CTF_TRACE_DAT_COMPRESSION_NONE:
      if (in_size != out_size)
        goto bad_size;
      if (out_size > 0)         /* an empty chunk may have no buffer */
        memcpy (out, in, out_size);
      return TRUE;
    case GST_CTF_TRACE_DAT_COMPRESSION_ZLIB:{
      /* trace-compress-zlib.c writes plain zlib streams (compress2) */
      uLongf dest_len = out_size;
      int ret;

      if (in_size > G_MAXULONG || out_size > G_MAXULONG)
        goto bad_size;
      ret = uncompress (out, &dest_len, in, (uLong) in_size);
      if (ret != Z_OK) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
            "Cannot inflate zlib block: file=\"%s\", offset=%" G_GUINT64_FORMAT
            ", compressed-size=%" G_GSIZE_FORMAT ", zlib-error=%d", origin,
            offset, in_size, ret);
        return FALSE;
      }
      if (dest_len != out_size)
        goto bad_size;
      return TRUE;
    }
    case GST_CTF_TRACE_DAT_COMPRESSION_ZSTD:{
      size_t ret;

      if (z != NULL && z->zstd == NULL)
        z->zstd = ZSTD_createDCtx ();
      if (z != NULL && z->zstd != NULL)
        ret = ZSTD_decompressDCtx (z->zstd, out, out_size, in, in_size);
      else
        ret = ZSTD_decompress (out, out_size, in, in_size);

      if (ZSTD_isError (ret)) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
            "Cannot inflate zstd block: file=\"%s\", offset=%" G_GUINT64_FORMAT
            ", compressed-size=%" G_GSIZE_FORMAT ", zstd-error=\"%s\"", origin,
            offset, in_size, ZSTD_getErrorName (ret));
        return FALSE;
      }
      if (ret != out_size)
        goto bad_size;
      return TRUE;
    }
    default:
      break;
  }
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
      "Unsupported compression: file=\"%s\", offset=%" G_GUINT64_FORMAT,
      origin, offset);
  return FALSE;

bad_size:
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
      "Inflated block has the wrong size: file=\"%s\", offset=%"
      G_GUINT64_FORMAT ", expected-size=%" G_GSIZE_FORMAT, origin, offset,
      out_size);
  return FALSE;
}
