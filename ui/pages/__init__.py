"""The window's pages and panels: welcome, timeline (view and model), recording (transcript and its
layers), search, connections, digest and the ask panel."""
