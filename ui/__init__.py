"""The PySide6 desktop shell: windows, widgets and view models over the app services.
The only package that imports Qt."""
