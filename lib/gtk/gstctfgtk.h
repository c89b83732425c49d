/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libgstctf-gtk-1.0: GTK 4 widgets for trace viewing. */
#pragma once

#include "gstctfgtk-version.h"
#include "gstctfgtk-event.h"
#include "gstctfgtk-event-model.h"
#include "gstctfgtk-filter-model.h"
#include "gstctfgtk-search.h"
#include "gstctfgtk-live-packets.h"
#include "gstctfgtk-timeline.h"
#include "gstctfgtk-task.h"
#include "gstctfgtk-details.h"
