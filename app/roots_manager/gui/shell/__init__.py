"""The app's shell: start-up, the main window that holds every feature, the tray, the single instance, settings, recovery and help."""
