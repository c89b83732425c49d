# SPDX-License-Identifier: LGPL-2.1-or-later
"""PyGObject override of GstCtf-1.0: Python iteration and Python values.

Loaded by `from gi.repository import GstCtf` when this file is in a
`gi/overrides` directory on `sys.path` (`meson install` puts it in
Python's; from a build tree, add `gir/python` of the source tree to
PYTHONPATH).  It adds to GstCtf.EventReader:

- iteration: `for ev in GstCtf.EventReader.open(path)` calls next() and
  gives the reader itself, positioned on each event in turn (read what you
  need inside the loop: the next step moves it); a failure raises the
  GLib.Error of next();
- Python values, as babeltrace2's Python bindings (bt2) give them:
  `ev["vtid"]` (payload, then contexts, as gst_ctf_event_reader_get_field()
  searches), `ev.get(path, default)`, and the scopes `ev.payload`,
  `ev.specific_context`, `ev.common_context`, `ev.packet_context` as dicts
  in declaration order; arrays and sequences are lists, structures dicts,
  enumerations GstCtf.EnumValue (an int with `.labels`), text str;
- `ev.name`, `ev.timestamp_ns`, `ev.cpu`;
- `GstCtf.EventReader.open(path, side_stream=False)`: a trace.dat's side
  stream (its tracecmd_* pseudo-events) left out unless asked for.

Without this file the same loop is written
`while reader.next(): ...` with the getters of the C API.
"""
from gi.repository import GLib

from ..module import get_introspection_module
from ..overrides import override

GstCtf = get_introspection_module("GstCtf")

__all__ = []


class EnumValue(int):
    """An enumeration value: an int, with the labels whose ranges hold it
    (babeltrace2's order; empty when none does), as bt2's enumeration
    fields give `labels`."""

    def __new__(cls, value, labels):
        self = int.__new__(cls, value)
        self.labels = labels
        return self

    def __repr__(self):
        return "%d (%s)" % (int(self), ", ".join(repr(x) for x in
                                                 self.labels))


__all__.append("EnumValue")


def _python(value):
    """A value unpacked from the ENUM_LABELS variant form, enumerations
    (the only tuples of that form) made EnumValue."""
    t = type(value)
    if t is tuple:
        return EnumValue(value[0], value[1])
    if t is list:
        if value and type(value[0]) in (int, float, str):
            return value
        return [_python(x) for x in value]
    if t is dict:
        return {k: _python(x) for k, x in value.items()}
    return value


def _value(v):
    """A value of get_fields_table_full(ENUM_LABELS): scalars as they
    are, compound values and enumerations from their GLib.Variant."""
    if type(v) is GLib.Variant:
        return _python(v.unpack())
    return v


_LABELS = GstCtf.ValueFlags.ENUM_LABELS
_MISSING = object()


class EventReader(GstCtf.EventReader):

    @staticmethod
    def open(path, side_stream=False):
        """GstCtf.EventReader.open(PATH): the events of the trace at PATH in
        global time order.  SIDE_STREAM=True also gives the events of a
        trace.dat's side stream (tracecmd_* event classes: the file's
        header, ftrace formats, saved cmdlines, ...), which describe the
        trace rather than happen in it (the side-stream property)."""
        reader = GstCtf.EventReader.open(path)
        reader.set_side_stream(side_stream)
        return reader

    def __iter__(self):
        return self

    def __next__(self):
        if self.next():
            return self
        raise StopIteration

    def get(self, path, default=None):
        """The field at PATH (`name`, `a.b[2]`, `payload:name`, ... as
        get_field() takes it) as a Python value, DEFAULT when absent."""
        v = self.get_field_variant_full(path, _LABELS)
        if v is None:
            return default
        return _python(v.unpack())

    def __getitem__(self, path):
        v = self.get(path, _MISSING)
        if v is _MISSING:
            raise KeyError(path)
        return v

    def __contains__(self, path):
        return self.get_field_variant(path) is not None

    def _scope(self, scope):
        # the C-built dict, put in declaration order
        table = self.get_fields_table_full(scope, _LABELS)
        return {k: _value(table[k]) for k in self.get_field_names(scope)}

    @property
    def payload(self):
        return self._scope(GstCtf.Scope.SCOPE_EVENT_PAYLOAD)

    @property
    def specific_context(self):
        return self._scope(GstCtf.Scope.SCOPE_EVENT_SPECIFIC_CONTEXT)

    @property
    def common_context(self):
        return self._scope(GstCtf.Scope.SCOPE_EVENT_COMMON_CONTEXT)

    @property
    def packet_context(self):
        return self._scope(GstCtf.Scope.SCOPE_PACKET_CONTEXT)

    @property
    def name(self):
        return self.get_event_name()

    @property
    def timestamp_ns(self):
        return self.get_timestamp_ns()

    @property
    def cpu(self):
        return self.get_cpu()


EventReader = override(EventReader)
__all__.append("EventReader")
