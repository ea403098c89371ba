"""What happens when: the window's behaviour, apart from its layout (the widgets say what is where).

    importing.py             files and folders, drops, passwords, per-file progress and cancel, removal,
                             the meaning-index queue that follows every import
    watched_folders.py       folders kept in sync: rescanned on start, watched while the window is open
    asking.py                ask, stream the answer, stop, re-run with edited queries
    evidence.py              a citation or a fused passage shown on its page
    chats.py                 the chat list: open, new, delete, export
    document_collections.py  the "Search in" collections
    model_loading.py         warming up the models, their state in the status bar
    settings.py              the settings dialog and the mode switch

Each controller talks to the core through the `Library` facade only, and runs slow work (models,
imports, database writes where it can) on the window's job runners (ui/workers.py).
"""
