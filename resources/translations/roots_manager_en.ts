<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ConsentDialog</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/consent/consent_dialog.py" line="+168"/>
        <source>%n more request(s) wait after this one.</source>
        <translation>
            <numerusform>%n more request waits after this one.</numerusform>
            <numerusform>%n more requests wait after this one.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DenialNotice</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/servers/denial_notice.py" line="+172"/>
        <source>%n refusal(s) of this domain.</source>
        <translation>
            <numerusform>%n refusal of this domain.</numerusform>
            <numerusform>%n refusals of this domain.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n refusal(s) of this folder.</source>
        <translation>
            <numerusform>%n refusal of this folder.</numerusform>
            <numerusform>%n refusals of this folder.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>(%n other(s) waiting)</source>
        <translation>
            <numerusform>(%n other waiting)</numerusform>
            <numerusform>(%n others waiting)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+33"/>
        <source>Stop showing the %n start-up refusal(s) of {server}</source>
        <translation>
            <numerusform>Stop showing the %n start-up refusal of {server}</numerusform>
            <numerusform>Stop showing the %n start-up refusals of {server}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+34"/>
        <source>{server} asks to {operation} {path} while running {request}: the call waits %n second(s) more for your answer.</source>
        <translation>
            <numerusform>{server} asks to {operation} {path} while running {request}: the call waits %n second more for your answer.</numerusform>
            <numerusform>{server} asks to {operation} {path} while running {request}: the call waits %n seconds more for your answer.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DetectDialog</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/roots/detect.py" line="+182"/>
        <source>%p% (%n folder(s))</source>
        <translation>
            <numerusform>%p% (%n folder)</numerusform>
            <numerusform>%p% (%n folders)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>%n folder(s)</source>
        <translation>
            <numerusform>%n folder</numerusform>
            <numerusform>%n folders</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Cancelled after {visited}; %n project(s) found so far.</source>
        <translation>
            <numerusform>Cancelled after {visited}; %n project found so far.</numerusform>
            <numerusform>Cancelled after {visited}; %n projects found so far.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n project(s) found in {visited}.</source>
        <translation>
            <numerusform>%n project found in {visited}.</numerusform>
            <numerusform>%n projects found in {visited}.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LearnDialog</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/servers/learn_dialog.py" line="+175"/>
        <source>%n refused so far</source>
        <translation>
            <numerusform>%n refused so far</numerusform>
            <numerusform>%n refused so far</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+37"/>
        <source>%n refused. Proposed grants, to accept or untick:</source>
        <translation>
            <numerusform>%n refusal. Proposed grants, to accept or untick:</numerusform>
            <numerusform>%n refused. Proposed grants, to accept or untick:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LogPanel</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+291"/>
        <source>Exported %n event(s) to {path}</source>
        <translation>
            <numerusform>Exported %n event to {path}</numerusform>
            <numerusform>Exported %n events to {path}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+212"/>
        <source>Showing {shown} of %n event(s)</source>
        <translation>
            <numerusform>Showing {shown} of %n event</numerusform>
            <numerusform>Showing {shown} of %n events</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/shell/main_window.py" line="+338"/>
        <source>Added %n root(s)</source>
        <translation>
            <numerusform>Added %n root</numerusform>
            <numerusform>Added %n roots</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+79"/>
        <source>%n server(s) wait for your decision</source>
        <translation>
            <numerusform>%n server waits for your decision</numerusform>
            <numerusform>%n servers wait for your decision</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+148"/>
        <source>Asked %n bridge(s) of {server} to restart it; the Log shows the restart</source>
        <translation>
            <numerusform>Asked %n bridge of {server} to restart it; the Log shows the restart</numerusform>
            <numerusform>Asked %n bridges of {server} to restart it; the Log shows the restart</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProbeDialog</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/probe/probe_dialog.py" line="+344"/>
        <source>%n row(s) changed since the previous run ({when}, version {version})</source>
        <translation>
            <numerusform>%n row changed since the previous run ({when}, version {version})</numerusform>
            <numerusform>%n rows changed since the previous run ({when}, version {version})</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n row(s) changed since the previous run ({when}, no version)</source>
        <translation>
            <numerusform>%n row changed since the previous run ({when}, no version)</numerusform>
            <numerusform>%n rows changed since the previous run ({when}, no version)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RootsPanel</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/roots/roots_view.py" line="+308"/>
        <source>These servers will no longer be told about %n root(s): {servers}.</source>
        <translation>
            <numerusform>These servers will no longer be told about %n root: {servers}.</numerusform>
            <numerusform>These servers will no longer be told about %n roots: {servers}.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>The %n root(s) are granted to no server now.</source>
        <translation>
            <numerusform>The %n root is granted to no server now.</numerusform>
            <numerusform>The %n roots are granted to no server now.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Remove %n root(s)</source>
        <translation>
            <numerusform>Remove %n root</numerusform>
            <numerusform>Remove %n roots</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ServerDetail</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/servers/server_detail.py" line="+264"/>
        <source>Revoked, but still readable until restart: %n folder(s) ({folders}). The running server keeps the rules it started with until it starts again.</source>
        <translation>
            <numerusform>Revoked, but still readable until restart: %n folder ({folders}). The running server keeps the rules it started with until it starts again.</numerusform>
            <numerusform>Revoked, but still readable until restart: %n folders ({folders}). The running server keeps the rules it started with until it starts again.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ServerList</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/servers/server_list.py" line="+177"/>
        <source>%n refusals</source>
        <translation>
            <numerusform>%n refusal</numerusform>
            <numerusform>%n refusals</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ServersModel</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/servers/servers_model.py" line="+177"/>
        <source>, restarted %n time(s)</source>
        <translation>
            <numerusform>, restarted %n time</numerusform>
            <numerusform>, restarted %n times</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/shell/tray.py" line="+86"/>
        <source>Roots Manager: %n consent request(s) waiting</source>
        <translation>
            <numerusform>Roots Manager: %n consent request waiting</numerusform>
            <numerusform>Roots Manager: %n consent requests waiting</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WelcomeBanner</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/shell/welcome.py" line="+69"/>
        <source>{host} (%n server(s))</source>
        <translation>
            <numerusform>{host} (%n server)</numerusform>
            <numerusform>{host} (%n servers)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>_ChangePage</name>
    <message numerus="yes">
        <location filename="../../app/roots_manager/gui/hosts/first_run.py" line="+244"/>
        <source>These lines of %n file(s) change; nothing else in them does. Protect makes the change.</source>
        <translation>
            <numerusform>These lines of %n file change; nothing else in it does. Protect makes the change.</numerusform>
            <numerusform>These lines of %n files change; nothing else in them does. Protect makes the change.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>_DonePage</name>
    <message numerus="yes">
        <location line="+166"/>
        <source>%n server(s) protected.</source>
        <translation>
            <numerusform>%n server protected.</numerusform>
            <numerusform>%n servers protected.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>_ServersPage</name>
    <message numerus="yes">
        <location line="-267"/>
        <source>{host} (%n server(s))</source>
        <translation>
            <numerusform>{host} (%n server)</numerusform>
            <numerusform>{host} (%n servers)</numerusform>
        </translation>
    </message>
</context>
</TS>
