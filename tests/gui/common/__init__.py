"""Tests of what the app's features share: the store's live view, error words, resources."""
