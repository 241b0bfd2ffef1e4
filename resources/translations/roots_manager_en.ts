<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ConsentDialog</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/consent_dialog.py" line="+168"/>
        <source>%n more request(s) wait after this one.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DetectDialog</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/detect.py" line="+174"/>
        <source>%p% (%n folder(s))</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>%n folder(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Cancelled after {visited}; %n project(s) found so far.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n project(s) found in {visited}.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LogPanel</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/log_view.py" line="+260"/>
        <source>Exported %n event(s) to {path}</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+117"/>
        <source>Showing {shown} of %n event(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/main_window.py" line="+145"/>
        <source>Added %n root(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+98"/>
        <source>%n server(s) wait for your decision</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/tray.py" line="+86"/>
        <source>Roots Manager: %n consent request(s) waiting</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
</TS>
