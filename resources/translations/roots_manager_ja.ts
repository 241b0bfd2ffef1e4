<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>AllowMenu</name>
    <message>
        <location filename="../../app/roots_manager/gui/common/allow_menu.py" line="+64"/>
        <source>Allow domain {domain}</source>
        <translation>ドメインを許可: {domain}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow and create: {folder}</source>
        <translation>許可して作成: {folder}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow this file: {file}</source>
        <translation>このファイルを許可: {file}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Allow folder: {folder}</source>
        <translation>フォルダーを許可: {folder}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allow read-only: {folder}</source>
        <translation>読み取り専用で許可: {folder}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not a path</source>
        <translation>パスではありません</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not offered in one click: {why}</source>
        <translation>ワンクリックでは許可できません: {why}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No folder offered: {why}</source>
        <translation>フォルダーは提案しません: {why}</translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/app.py" line="+414"/>
        <source>Roots Manager</source>
        <translation>Roots Manager</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roots Manager could not start again: {reason}</source>
        <translation>Roots Manager を再び起動できませんでした: {reason}</translation>
    </message>
</context>
<context>
    <name>ChangePreview</name>
    <message>
        <location filename="../../app/roots_manager/gui/hosts/host_change_dialog.py" line="+37"/>
        <source>Protect {server}?</source>
        <translation>{server} を保護しますか？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop protecting {server}?</source>
        <translation>{server} の保護をやめますか？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{server} will start behind the bridge: it sees only the folders you grant it. {host}&apos;s file changes as shown below; a backup is kept, and Undo last change takes it back.</source>
        <translation>{server} はブリッジ経由で起動し、許可したフォルダーだけを見ます。{host} のファイルは下のとおりに変わります。バックアップが保存され、「最後の変更を元に戻す」で取り消せます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{server} will start without the bridge again, and see what its command line gives it. {host}&apos;s file changes as shown below; a backup is kept.</source>
        <translation>{server} は再びブリッジなしで起動し、コマンドラインで渡されたものを見ます。{host} のファイルは下のとおりに変わります。バックアップが保存されます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The change to {file}</source>
        <translation>{file} への変更</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Protect</source>
        <translation>保護する(&amp;P)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Stop protecting</source>
        <translation>保護をやめる(&amp;S)</translation>
    </message>
</context>
<context>
    <name>ConfineBox</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/confine_box.py" line="+49"/>
        <source>Confine this server to its gr&amp;ants</source>
        <translation>このサーバーを許可したフォルダーに閉じ込める(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Confine the selected server to its grants</source>
        <translation>選択したサーバーを許可したフォルダーに閉じ込める</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Ask me before refusing a read or a connection: the call waits up to {seconds} s</source>
        <translation>読み取りや接続を拒否する前に確認する: 呼び出しは最大 {seconds} 秒待ちます</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>While the host waits for a request, a read outside the server&apos;s grants waits for you instead of failing: allow a folder holding it (here, in the Log, or roots-manager grant) and that very call reads it, with no restart; so does a connection to a domain not among those it is limited to (Allow domain). From the server&apos;s next start.</source>
        <translation>ホストが要求を待っている間、サーバーの許可の外の読み取りは失敗せずにあなたの判断を待ちます。それを含むフォルダーを許可すると（ここ、ログ、または roots-manager grant で）、その呼び出しがそのまま読み取り、再起動はしません。許可されたドメイン以外への接続も同じです（ドメインを許可）。サーバーの次回起動から有効です。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Extra paths the confined server may use</source>
        <translation>閉じ込められたサーバーが追加で使えるパス</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Restart it when a folder is revo&amp;ked</source>
        <translation>フォルダーが取り消されたら再起動する(&amp;K)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop and start the server again behind the host&apos;s back when a folder it was told is revoked (and, confined, when its grants change): the host stays connected, and the server forgets the folder. On by default for confined servers; from the server&apos;s next start.</source>
        <translation>伝えたフォルダーが取り消されたとき（閉じ込め中なら許可が変わったときも）、ホストに気付かれずにサーバーを停止して再起動します。ホストは接続したままで、サーバーはそのフォルダーを忘れます。閉じ込められたサーバーでは既定でオン。サーバーの次回起動から有効です。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Turn on restart on rev&amp;oke</source>
        <translation>取り消し時の再起動をオンにする(&amp;O)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Un&amp;do learning</source>
        <translation>学習を元に戻す(&amp;D)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put back the confinement setting it had before learning started</source>
        <translation>学習を始める前の閉じ込めの設定に戻します</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Extra read-onl&amp;y path…</source>
        <translation>読み取り専用の追加パス…(&amp;Y)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>E&amp;xtra writable path…</source>
        <translation>書き込み用の追加パス…(&amp;X)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Re&amp;move path</source>
        <translation>パスを削除(&amp;M)</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>{server} was told its folders changed and has not asked for them since: it may still use a folder you revoked. Restart on revoke makes a revocation restart it, from its next start.</source>
        <translation>{server} はフォルダーの変更を通知されましたが、その後問い合わせていません。取り消したフォルダーをまだ使っている可能性があります。「取り消し時の再起動」をオンにすると、次回起動から取り消しのたびに再起動されます。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Select a server to confine it or not.</source>
        <translation>閉じ込めるかどうかを決めるサーバーを選んでください。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>turning it on takes effect when the server next starts</source>
        <translation>オンにすると、サーバーの次回起動時から有効になります</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>as it asks, a folder granted read-only while it runs is read at once, with no restart; one granted to write, or a revocation, restarts it</source>
        <translation>確認する設定なので、実行中に読み取り専用で許可したフォルダーは再起動なしですぐに読み取られます。書き込みを許可した場合や取り消した場合は再起動します</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{clause}.</source>
        <comment>a clause made a sentence: its full stop</comment>
        <translation>{clause}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Start {server} confined to the folders it was granted; a change takes effect when it next starts</source>
        <translation>{server} を許可したフォルダーに閉じ込めて起動します。変更は次回の起動時から有効になります</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Learning {server} ended without finishing and left it confined; it was not confined before.</source>
        <translation>{server} の学習は完了せずに終わり、閉じ込めたままになっています。以前は閉じ込めなしでした。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Learning {server} ended without finishing and left it confined; before, the default for new servers decided whether it was.</source>
        <translation>{server} の学習は完了せずに終わり、閉じ込めたままになっています。以前は、閉じ込めるかどうかを新しいサーバーの既定が決めていました。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>read: {path}</source>
        <translation>読み取り：{path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>read and write: {path}</source>
        <translation>読み書き：{path}</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>A folder {server} may also write</source>
        <translation>{server} が書き込みもできるフォルダー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A folder {server} may also read</source>
        <translation>{server} が読み取りもできるフォルダー</translation>
    </message>
</context>
<context>
    <name>Confinement</name>
    <message>
        <location filename="../../app/roots_manager/gui/common/confinement_text.py" line="+18"/>
        <source>read</source>
        <translation>読み取り</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>write</source>
        <translation>書き込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>list</source>
        <translation>一覧</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>execute</source>
        <translation>実行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>create</source>
        <translation>作成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>connect</source>
        <translation>接続</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Confinement works on Linux (Landlock); on macOS it is untested; on Windows it is unavailable.</source>
        <translation>閉じ込めは Linux（Landlock）で動作します。macOS では未検証、Windows では利用できません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>This machine can confine servers (Landlock ABI {abi}).</source>
        <translation>このマシンはサーバーを閉じ込められます（Landlock ABI {abi}）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This machine can confine servers with sandbox-exec (untested on a real Mac).</source>
        <translation>このマシンは sandbox-exec でサーバーを閉じ込められます（実機の Mac では未検証）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>this Linux kernel has no Landlock (it needs Linux 5.13 or newer with Landlock enabled)</source>
        <translation>この Linux カーネルには Landlock がありません（Landlock を有効にした Linux 5.13 以降が必要です）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>this Linux kernel&apos;s Landlock is ABI {abi}; confinement needs ABI {need} (Linux 6.2 or newer)</source>
        <translation>この Linux カーネルの Landlock は ABI {abi} です。閉じ込めには ABI {need}（Linux 6.2 以降）が必要です</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>confinement is not available on this system (Linux and macOS only)</source>
        <translation>このシステムでは閉じ込めを利用できません（Linux と macOS のみ）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This machine cannot confine servers: {reason}.</source>
        <translation>このマシンはサーバーを閉じ込められません: {reason}。</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/connect/connect_dialog.py" line="+41"/>
        <source>Connect a server</source>
        <translation>サーバーに接続</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Start a server through the bridge, with Roots Manager as its host, to watch how it uses roots. The server sees the folders you grant it.</source>
        <translation>Roots Manager をホストとして、ブリッジ経由でサーバーを起動し、サーバーがルートをどう使うかを確認します。サーバーには許可したフォルダーだけが見えます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Known servers</source>
        <translation>既知のサーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(type a command line below)</source>
        <translation>（下にコマンドラインを入力）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Command line</source>
        <translation>コマンドライン</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>for example: npx -y @modelcontextprotocol/server-filesystem</source>
        <translation>例: npx -y @modelcontextprotocol/server-filesystem</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Use the &amp;demo server</source>
        <translation>デモサーバーを使う(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the demo server</source>
        <translation>デモサーバーを使う</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server name</source>
        <translation>サーバー名</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Problem with the input</source>
        <translation>入力の問題</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Known server:</source>
        <translation>既知のサーバー(&amp;K):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Command &amp;line:</source>
        <translation>コマンドライン(&amp;L):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server &amp;name:</source>
        <translation>サーバー名(&amp;N):</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>C&amp;onnect</source>
        <translation>接続(&amp;O)</translation>
    </message>
    <message>
        <location line="+69"/>
        <location line="+12"/>
        <source>Enter the command line that starts the server.</source>
        <translation>サーバーを起動するコマンドラインを入力してください。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>a quotation mark is not closed</source>
        <translation>引用符が閉じられていません</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it ends with a lone backslash</source>
        <translation>末尾が単独のバックスラッシュです</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The command line cannot be read: {0}.</source>
        <translation>コマンドラインを解釈できません: {0}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The program {0} does not exist.</source>
        <translation>プログラム {0} は存在しません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} is not a program that can be run.</source>
        <translation>{0} は実行できるプログラムではありません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The program {0} is not found on the search path (PATH).</source>
        <translation>プログラム {0} が検索パス (PATH) に見つかりません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Enter a name for the server: grants are made to this name.</source>
        <translation>サーバーの名前を入力してください。許可はこの名前に対して与えられます。</translation>
    </message>
</context>
<context>
    <name>ConnectionManager</name>
    <message>
        <location filename="../../app/roots_manager/gui/connect/connect.py" line="+110"/>
        <source>the command line is empty</source>
        <translation>コマンドラインが空です</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the server {0} is still disconnecting; try again in a moment</source>
        <translation>サーバー {0} はまだ切断中です。しばらくしてからもう一度お試しください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a server named {0} is already connected</source>
        <translation>{0} という名前のサーバーはすでに接続されています</translation>
    </message>
</context>
<context>
    <name>ConsentDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/consent/consent_dialog.py" line="+69"/>
        <source>A server asks for your folders</source>
        <translation>サーバーがフォルダーを求めています</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Consent request from {server}</source>
        <translation>{server} からの同意リクエスト</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;h3&gt;May &lt;i&gt;{server}&lt;/i&gt; see your folders?&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;&lt;i&gt;{server}&lt;/i&gt; にフォルダーを見せますか?&lt;/h3&gt;</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>This server&apos;s command line changed since you approved it. Its grants are suspended until you decide; a changed command may be a different program.</source>
        <translation>このサーバーのコマンドラインは承認後に変更されました。決めるまで許可は停止されます。コマンドが変わった場合、別のプログラムである可能性があります。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Asked at {when}.</source>
        <translation>{when} にリクエストされました。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Full command line</source>
        <translation>完全なコマンドライン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full co&amp;mmand line:</source>
        <translation>完全なコマンドライン(&amp;M):</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Previously approved command line</source>
        <translation>以前に承認したコマンドライン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previously &amp;approved command line:</source>
        <translation>以前に承認したコマンドライン(&amp;A):</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Drop folders here, or use Add folder…</source>
        <translation>ここにフォルダーをドロップするか、「フォルダーを追加…」を使ってください</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Add &amp;folder…</source>
        <translation>フォルダーを追加(&amp;F)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add a folder to your roots and tick it here (or drop folders on the list)</source>
        <translation>フォルダーをルートに追加して、ここでチェックします（一覧にフォルダーをドロップしても追加できます）</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>%n more request(s) wait after this one.</source>
        <translation>
            <numerusform>このあとにさらに %n 件のリクエストが待っています。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow w&amp;hile it runs</source>
        <translation>実行中だけ許可(&amp;H)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Tick the folders it may see to allow it, or Deny.</source>
        <translation>許可するには、見せてよいフォルダーにチェックを入れてください。または「拒否」を選びます。</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>{server} is not waiting now: your decision applies when it next asks.</source>
        <translation>{server} は今は待っていません。決定は次にフォルダーを尋ねたときに適用されます。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{server} has not asked for its folders yet; once it asks, it waits up to {seconds} s for your decision.</source>
        <translation>{server} はまだフォルダーを尋ねていません。尋ねると、あなたの決定を最大 {seconds} 秒待ちます。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{server} is waiting: {seconds} s</source>
        <translation>{server} が待っています: 残り {seconds} 秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The time ran out: {server} was answered with no folder. A decision now still reaches it.</source>
        <translation>時間切れです: {server} にはフォルダーなしで応答しました。今決定しても、その決定はサーバーに届きます。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{name} — {path} ({reason})</source>
        <translation>{name} — {path}（{reason}）</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Add a folder the server may see</source>
        <translation>サーバーに見せるフォルダーを追加</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>This server runs confined: the kernel refuses it every file outside the folders you allow (a refusal shows in Roots Manager, where it can be allowed). Its network reaches only its domains, through Roots Manager&apos;s proxy.</source>
        <translation>このサーバーは閉じ込められて動作します: 許可したフォルダーの外にあるファイルはすべてカーネルが拒否します (拒否は Roots Manager に表示され、そこで許可できます)。ネットワークは Roots Manager のプロキシを通して、そのドメインにだけ届きます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This server runs confined: the kernel refuses it every file outside the folders you allow (a refusal shows in Roots Manager, where it can be allowed). Its network is blocked.</source>
        <translation>このサーバーは閉じ込められて動作します: 許可したフォルダーの外にあるファイルはすべてカーネルが拒否します (拒否は Roots Manager に表示され、そこで許可できます)。ネットワークはブロックされています。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This server runs confined: the kernel refuses it every file outside the folders you allow (a refusal shows in Roots Manager, where it can be allowed). Its network is not restricted unless you block it.</source>
        <translation>このサーバーは閉じ込められて動作します: 許可したフォルダーの外にあるファイルはすべてカーネルが拒否します (拒否は Roots Manager に表示され、そこで許可できます)。ネットワークは、ブロックしない限り制限されません。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Roots tell a server where to look. Only a confined server is held to them by the kernel; another can still open any file its process may.</source>
        <translation>ルートはサーバーにどこを見るべきかを伝えます。カーネルがルートに従わせるのは閉じ込められたサーバーだけです。それ以外のサーバーは、そのプロセスが開けるファイルならどれでも開けます。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This server does not run confined: roots tell it where to look, but they are not an access control. It can still open any file its process may.</source>
        <translation>このサーバーは閉じ込められていません: ルートはどこを見るべきかを伝えますが、アクセス制御ではありません。そのプロセスが開けるファイルならどれでも開けます。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Tick at least one folder first</source>
        <translation>先に少なくとも 1 つのフォルダーにチェックを入れてください</translation>
    </message>
    <message>
        <location line="-220"/>
        <source>Roots the server may see</source>
        <translation>サーバーに見せてよいルート</translation>
    </message>
    <message>
        <location line="-59"/>
        <source>This server has not run behind Roots Manager before. While you decide, its request for folders is held, for a limited time; then it is answered with no folder, and your decision reaches it later.</source>
        <translation>このサーバーは Roots Manager の背後で動いたことがありません。あなたが決めるまで、フォルダーのリクエストは一定時間保留されます。その後はフォルダーなしで応答し、あなたの決定はあとからサーバーに届きます。</translation>
    </message>
    <message>
        <location line="+197"/>
        <source>&amp;Roots it may see (tick the ones you allow):</source>
        <translation>見せてよいルート(&amp;R)（許可するものにチェック）:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>You have no roots yet. Add the folders this server may see with Add folder…, or allow it with none for now.</source>
        <translation>まだルートがありません。このサーバーに見せるフォルダーを「フォルダーを追加…」で追加するか、今はフォルダーなしで許可してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>You have no roots yet: allowing approves the server with no folder.</source>
        <translation>まだルートがありません。許可すると、フォルダーなしでサーバーを承認します。</translation>
    </message>
    <message>
        <location line="-113"/>
        <source>Al&amp;ways allow</source>
        <translation>常に許可(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Deny</source>
        <translation>拒否(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Later</source>
        <translation>後で(&amp;L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Decide later: the request stays pending and the server waits or sees nothing</source>
        <translation>後で決める: リクエストは保留のままで、サーバーは待つか、何も見えません</translation>
    </message>
</context>
<context>
    <name>ConsentMatrixModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/consent_matrix.py" line="+159"/>
        <source>Its command line changed: its grants are suspended until approved</source>
        <translation>コマンドラインが変更されました。承認されるまで許可は停止されます</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>always, read-only</source>
        <translation>常に、読み取り専用</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Always</source>
        <translation>常に</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Always, read-only</source>
        <translation>常に・読み取り専用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Allowed by policy</source>
        <translation>ポリシーにより許可</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not granted</source>
        <translation>許可なし</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>{server} always sees {root}</source>
        <translation>{server} には {root} が常に見えます</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>while running</source>
        <translation>実行中のみ</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>While running, read-only</source>
        <translation>実行中のみ・読み取り専用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>While running</source>
        <translation>実行中のみ</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>{server} sees {root} until it stops running</source>
        <translation>{server} には実行が止まるまで {root} が見えます</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{server} does not see {root}</source>
        <translation>{server} には {root} が見えません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read-only: the kernel lets it read the folder, not write in it</source>
        <translation>読み取り専用: カーネルはフォルダーの読み取りを許し、書き込みを拒みます</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read-only, but not enforced: read-only holds only while the server runs confined</source>
        <translation>読み取り専用ですが強制されません: 読み取り専用はサーバーが閉じ込められて動いている間だけ有効です</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Suspended: its command line changed since it was approved</source>
        <translation>停止中: 承認後にコマンドラインが変更されました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Click or Space: not granted, while running, always</source>
        <translation>クリックまたは Space: 許可なし → 実行中のみ → 常に</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>{server}, {root}: {scope}</source>
        <translation>{server}、{root}: {scope}</translation>
    </message>
    <message>
        <location line="-55"/>
        <source>{server}: confined</source>
        <translation>{server}: 閉じ込め中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{server}: not confined</source>
        <translation>{server}: 閉じ込めなし</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>while running, read-only</source>
        <translation>実行中のみ、読み取り専用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>always</source>
        <translation>常に</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>not granted</source>
        <translation>許可なし</translation>
    </message>
</context>
<context>
    <name>CoreError</name>
    <message>
        <location filename="../../app/roots_manager/core/store/state.py" line="+95"/>
        <source>several roots are named {ref!r} ({paths}); name one by its path</source>
        <translation>{ref!r} という名前のルートが複数あります（{paths}）。パスで指定してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no root matches {ref!r} (roots-manager roots list shows them)</source>
        <translation>{ref!r} に一致するルートはありません（roots-manager roots list で一覧を表示できます）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot add {path}: it does not exist</source>
        <translation>{path} を追加できません: 存在しません</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot add {path}: it is not a folder</source>
        <translation>{path} を追加できません: フォルダーではありません</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/roots/root.py" line="+26"/>
        <source>refusing to add {path}: it is the root of the file system: every server granted it could be pointed at every file. Add a project folder instead, or pass --allow-broad if you really mean it</source>
        <translation>{path} は追加しません: ファイルシステムのルートです。これを許可したサーバーはすべて、あらゆるファイルを対象にできてしまいます。代わりにプロジェクトフォルダーを追加するか、本当に必要な場合は --allow-broad を指定してください</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>refusing to add {path}: it is your home folder: every server granted it could be pointed at all your files. Add a project folder instead, or pass --allow-broad if you really mean it</source>
        <translation>{path} は追加しません: ホームフォルダーです。これを許可したサーバーはすべて、あなたのすべてのファイルを対象にできてしまいます。代わりにプロジェクトフォルダーを追加するか、本当に必要な場合は --allow-broad を指定してください</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>refusing to add {path}: it holds your home folder ({home}): every server granted it could be pointed at all your files. Add a project folder instead, or pass --allow-broad if you really mean it</source>
        <translation>{path} は追加しません: ホームフォルダー（{home}）を含んでいます。これを許可したサーバーはすべて、あなたのすべてのファイルを対象にできてしまいます。代わりにプロジェクトフォルダーを追加するか、本当に必要な場合は --allow-broad を指定してください</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>cannot add {path}: the path, or a folder name in it, is longer than the system allows (ENAMETOOLONG)</source>
        <translation>{path} を追加できません: パス、またはその中のフォルダー名が、システムの許す長さを超えています（ENAMETOOLONG）</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/store/state.py" line="-20"/>
        <source>{name!r} is not a usable server name: it looks like the known server {known!r} (Unicode&apos;s confusables), so the two would be taken for each other. Name it differently</source>
        <translation>{name!r} はサーバー名として使えません: 既知のサーバー {known!r} と見分けがつきません（Unicode の紛らわしい文字）。別の名前を付けてください</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>{path} is already a root, named {name!r}</source>
        <translation>{path} はすでにルートです（名前: {name!r}）</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>no server named {name!r} is known (roots-manager servers list shows them)</source>
        <translation>{name!r} という名前のサーバーは登録されていません（roots-manager servers list で一覧を表示できます）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{name!r} cannot name this root: the root {path} is named {other!r}, which looks the same (Unicode&apos;s confusables). Name it differently</source>
        <translation>{name!r} はこのルートの名前に使えません: ルート {path} の名前 {other!r} と見分けがつきません（Unicode の紛らわしい文字）。別の名前を付けてください</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>unknown policy {policy!r}; choose one of {choices}</source>
        <translation>不明なポリシー {policy!r} です。{choices} のいずれかを選んでください</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no pending consent request for {ref!r}</source>
        <translation>{ref!r} の保留中の同意リクエストはありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server {name!r} has not run yet; there is nothing to approve</source>
        <translation>サーバー {name!r} はまだ実行されていないため、承認するものはありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{given!r} is not a command fingerprint (64 hexadecimal digits; roots-manager servers list --json shows each server&apos;s)</source>
        <translation>{given!r} はコマンドのフィンガープリントではありません（16 進数 64 桁。各サーバーのものは roots-manager servers list --json で表示できます）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>server {name!r} last ran with another command line than the one expected: {command} (fingerprint {seen}); look at it again before approving</source>
        <translation>サーバー {name!r} は、想定とは別のコマンドラインで最後に実行されました: {command}（フィンガープリント {seen}）。承認する前にもう一度確認してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a root&apos;s name cannot be empty</source>
        <translation>ルートの名前は空にできません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root&apos;s name cannot hold control or text-direction characters ({chars})</source>
        <translation>ルートの名前に制御文字や文字方向の制御文字は使えません（{chars}）</translation>
    </message>
    <message>
        <location line="-62"/>
        <source>{name!r} is not a usable server name: it is empty</source>
        <translation>{name!r} はサーバー名として使えません: 空です</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name!r} is not a usable server name: it holds control or text-direction characters ({chars})</source>
        <translation>{name!r} はサーバー名として使えません: 制御文字や文字方向の制御文字を含んでいます（{chars}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name!r} is not a usable server name: it holds characters that cannot be seen ({chars}), so it would look like another name</source>
        <translation>{name!r} はサーバー名として使えません: 目に見えない文字を含んでいるため（{chars}）、別の名前と見分けがつきません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name!r} is not a usable server name: it begins or ends with a space, so it would look like another name</source>
        <translation>{name!r} はサーバー名として使えません: 先頭か末尾に空白があるため、別の名前と見分けがつきません</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/store/log_limits.py" line="+14"/>
        <source>the traffic log size limit must be a whole number of MiB from 0 (no limit) to {top}, not {value!r}</source>
        <translation>通信ログのサイズ上限は 0（上限なし）から {top} までの整数（MiB）で指定してください。{value!r} は使えません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the traffic log age limit must be a whole number of days from 0 (no limit) to {top}, not {value!r}</source>
        <translation>通信ログの保存期間は 0（上限なし）から {top} までの整数（日）で指定してください。{value!r} は使えません</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/roots/uri.py" line="+34"/>
        <source>a path cannot contain a NUL character: {path!r}</source>
        <translation>パスに NUL 文字は使えません: {path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not an absolute path: {path!r}</source>
        <translation>絶対パスではありません: {path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a UNC path needs a server and a share: {path!r}</source>
        <translation>UNC パスにはサーバーと共有名が必要です: {path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not an absolute Windows path (drive or UNC): {path!r}</source>
        <translation>Windows の絶対パス（ドライブまたは UNC）ではありません: {path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a Windows device or volume path has no file URI: {path!r}</source>
        <translation>Windows のデバイスまたはボリュームのパスには file URI がありません: {path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a URI (no scheme); a root must be a file:// URI: {uri!r}</source>
        <translation>URI ではありません（スキームがありません）。ルートは file:// URI である必要があります: {uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>only file:// URIs can be roots, not {scheme}: {uri!r}</source>
        <translation>ルートにできるのは file:// URI だけで、{scheme} は使えません: {uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI cannot have a query (an unencoded &apos;?&apos;): {uri!r}</source>
        <translation>ルートの URI にクエリ（エンコードされていない「?」）は使えません: {uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI cannot have a fragment (an unencoded &apos;#&apos;): {uri!r}</source>
        <translation>ルートの URI にフラグメント（エンコードされていない「#」）は使えません: {uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not an absolute file URI: {uri!r}</source>
        <translation>絶対パスの file URI ではありません: {uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI cannot encode a path separator (%2F): {uri!r}</source>
        <translation>ルートの URI でパス区切り（%2F）をエンコードすることはできません: {uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI cannot encode a NUL character (%00): {uri!r}</source>
        <translation>ルートの URI で NUL 文字（%00）をエンコードすることはできません: {uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI must name this machine (no host, or localhost): {uri!r}</source>
        <translation>ルートの URI はこのコンピューターを指す必要があります（ホストなし、または localhost）: {uri!r}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not an absolute Windows file URI (drive or UNC): {uri!r}</source>
        <translation>Windows の絶対パスの file URI（ドライブまたは UNC）ではありません: {uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a broken percent escape in {uri!r}</source>
        <translation>{uri!r} に壊れたパーセントエスケープがあります</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{uri!r} encodes bytes that are not UTF-8</source>
        <translation>{uri!r} は UTF-8 ではないバイトをエンコードしています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{uri!r} holds raw bytes that are not UTF-8</source>
        <translation>{uri!r} は UTF-8 ではないバイトをそのまま含んでいます</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/confinement/offers.py" line="+120"/>
        <source>{offer} is not offered for the refusal of {path}: {why}</source>
        <translation>{path} の拒否には {offer} は提案されていません: {why}</translation>
    </message>
</context>
<context>
    <name>CoreText</name>
    <message>
        <location filename="../../app/roots_manager/core/confinement/confined.py" line="+55"/>
        <source>confined: the kernel refuses every file outside what was granted; the network is not restricted</source>
        <translation>閉じ込め中: 許可されたもの以外のファイルはすべてカーネルが拒否します。ネットワークは制限されません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>confined: the kernel refuses every file outside what was granted, and every network connection</source>
        <translation>閉じ込め中: 許可されたもの以外のファイルと、すべてのネットワーク接続をカーネルが拒否します</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>confined: the kernel refuses every file outside what was granted, and the network reaches only its domains, through Roots Manager&apos;s proxy</source>
        <translation>閉じ込め中: 許可されたもの以外のファイルはすべてカーネルが拒否し、ネットワークは Roots Manager のプロキシを通して、そのドメインにだけ届きます</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not confined: roots are advice, the server may read anything your user can, and read-only grants are not enforced</source>
        <translation>閉じ込めなし: ルートは助言にすぎず、サーバーはあなたのユーザーが読めるものを何でも読めます。読み取り専用の許可も強制されません</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>grants made or revoked while a confined server runs restart it with the new rules, unseen by the host</source>
        <translation>閉じ込められたサーバーの実行中に許可を変更または取り消すと、新しいルールでサーバーを再起動します（ホストからは見えません）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>restart on revoke is off: grants made or revoked while a confined server runs take effect at its next start</source>
        <translation>取り消し時の再起動はオフです：閉じ込められたサーバーの実行中に変更した許可は次回起動時に有効になります</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/confinement/learning.py" line="+40"/>
        <source>a connection, not a path</source>
        <translation>接続（パスではありません）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no longer a folder</source>
        <translation>もうフォルダーではありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no longer there</source>
        <translation>もう存在しません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server may do this now</source>
        <translation>サーバーは既にこれを行えます</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/confinement/offers.py" line="-19"/>
        <source>the whole file system</source>
        <translation>ファイルシステム全体</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the home folder, or a folder holding it</source>
        <translation>ホームフォルダー、またはそれを含むフォルダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>credentials ({path})</source>
        <translation>認証情報（{path}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>another user&apos;s home</source>
        <translation>他のユーザーのホーム</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a system file that cannot be looked at</source>
        <translation>確認できないシステムファイル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a system file others may not read</source>
        <translation>他のユーザーが読めないシステムファイル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the kernel&apos;s view of processes</source>
        <translation>カーネルのプロセス情報</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a path</source>
        <translation>パスではありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a domain ({domain})</source>
        <translation>ドメインではありません ({domain})</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>too broad</source>
        <translation>範囲が広すぎます</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a protected place, which no grant opens (servers show NAME says why)</source>
        <translation>保護された場所です。どの許可でも開かれません（理由は servers show NAME で確認できます）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Roots Manager&apos;s own code or state ({path}): a server that wrote it would run free</source>
        <translation>Roots Manager 自身のコードまたは状態 ({path}): サーバーが書き込めば閉じ込めの外で動けてしまいます</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a place kept read-only whatever is granted ({path}): what is there runs later</source>
        <translation>何を許可しても読み取り専用に保たれる場所 ({path}): そこにあるものは後で実行されます</translation>
    </message>
</context>
<context>
    <name>DenialNotice</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/denial_notice.py" line="+71"/>
        <source>A confined server was refused</source>
        <translation>閉じ込められたサーバーが拒否されました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Allow &amp;folder</source>
        <translation>フォルダーを許可(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;read-only</source>
        <translation>読み取り専用で許可(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow this fi&amp;le</source>
        <translation>このファイルを許可(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow and ma&amp;ke</source>
        <translation>許可して作成(&amp;K)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;domain</source>
        <translation>ドメインを許可(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>I&amp;gnore</source>
        <translation>無視(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ignore all start-&amp;up</source>
        <translation>起動時の拒否をすべて無視(&amp;U)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All refu&amp;sals…</source>
        <translation>すべての拒否…(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Always</source>
        <translation>常に</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until it ends</source>
        <translation>終了するまで</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This once</source>
        <translation>今回のみ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How long to allow</source>
        <translation>許可する期間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow for:</source>
        <translation>許可の期間:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Always: a grant, saved, which its next start gets. Until it ends, and this once: the reads are served while it runs, or only those waiting now; nothing is saved.</source>
        <translation>常に: 保存される許可で、次回の起動にも適用されます。終了するまで・今回のみ: 実行中の読み取り、または現在待機中の読み取りだけを許可し、何も保存しません。</translation>
    </message>
    <message numerus="yes">
        <location line="+80"/>
        <source>%n refusal(s) of this domain.</source>
        <translation>
            <numerusform>このドメインの拒否は %n 件です。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n refusal(s) of this folder.</source>
        <translation>
            <numerusform>このフォルダーの拒否は %n 件です。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not offered in one click: {why}.</source>
        <translation>ワンクリックでは許可できません: {why}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a path</source>
        <translation>パスではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No folder offered: {why}.</source>
        <translation>フォルダーは提案しません: {why}。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>(%n other(s) waiting)</source>
        <translation>
            <numerusform>(ほかに %n 件が待機中)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Refuse the call that waits, now, and stop showing it</source>
        <translation>待っている呼び出しを今すぐ拒否し、表示をやめます</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop showing it; it stays in the Log</source>
        <translation>表示をやめます。ログには残ります</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Let {server} reach {domain} through Roots Manager&apos;s proxy, from its next start</source>
        <translation>次回の起動から、{server} が Roots Manager のプロキシを通して {domain} に接続できるようにします</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Make {folder}, a folder of its own, and let it write there</source>
        <translation>専用のフォルダー {folder} を作成し、そこへの書き込みを許可します</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>Stop showing the %n start-up refusal(s) of {server}</source>
        <translation>
            <numerusform>{server} の起動時の拒否 %n 件を表示しない</numerusform>
        </translation>
    </message>
    <message>
        <location line="+25"/>
        <source>{server} was refused {path} ({operation}) at start-up.</source>
        <translation>{server} は起動時に {path} を拒否されました（{operation}）。</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>{server} asks to {operation} {path} while running {request}: the call waits %n second(s) more for your answer.</source>
        <translation>
            <numerusform>{server} は {request} の実行中に {path} の{operation}を求めています。呼び出しはあと %n 秒、あなたの回答を待ちます。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{server} was refused {path} ({operation}) while running {request}.</source>
        <translation>{server} は {request} の実行中に {path} を拒否されました（{operation}）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{server} was refused {path} ({operation}) between requests.</source>
        <translation>{server} はリクエストの合間に {path} を拒否されました（{operation}）。</translation>
    </message>
</context>
<context>
    <name>DetectDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/roots/detect.py" line="+65"/>
        <source>Detect projects</source>
        <translation>プロジェクトを検出</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Folder to search</source>
        <translation>検索するフォルダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search &amp;in:</source>
        <translation>検索場所(&amp;I):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Browse…</source>
        <translation>参照(&amp;B)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Scan</source>
        <translation>スキャン(&amp;S)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Scan progress</source>
        <translation>スキャンの進行状況</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Choose a folder and press Scan.</source>
        <translation>フォルダーを選んで「スキャン」を押してください。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cance&amp;l scan</source>
        <translation>スキャンを中止(&amp;L)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Projects found</source>
        <translation>見つかったプロジェクト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Projects found:</source>
        <translation>見つかったプロジェクト(&amp;P):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Tick all</source>
        <translation>すべてチェック(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Untick all</source>
        <translation>すべてのチェックを外す(&amp;U)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Add checked</source>
        <translation>チェックしたものを追加(&amp;A)</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Search for projects in</source>
        <translation>プロジェクトを検索する場所</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{path} is not a folder.</source>
        <translation>{path} はフォルダーではありません。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Searching {path}…</source>
        <translation>{path} を検索中…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cancelling…</source>
        <translation>中止しています…</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%p% (%n folder(s))</source>
        <translation>
            <numerusform>%p%（%n 個のフォルダー）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>%n folder(s)</source>
        <translation>
            <numerusform>%n 個のフォルダー</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Cancelled after {visited}; %n project(s) found so far.</source>
        <translation>
            <numerusform>{visited}を調べたところで中止しました。これまでに %n 件のプロジェクトが見つかりました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n project(s) found in {visited}.</source>
        <translation>
            <numerusform>{visited}から %n 件のプロジェクトが見つかりました。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No project found in {visited}.</source>
        <translation>{visited}からプロジェクトは見つかりませんでした。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Found by: {markers}</source>
        <translation>検出の手がかり: {markers}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} — {path} (already a root)</source>
        <translation>{name} — {path}（すでにルート）</translation>
    </message>
</context>
<context>
    <name>HostConnection</name>
    <message>
        <location filename="../../app/roots_manager/gui/connect/host_connection.py" line="+311"/>
        <source>the server refused the handshake: {0}</source>
        <translation>サーバーがハンドシェイクを拒否しました: {0}</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>the server did not answer the handshake within {0} s</source>
        <translation>サーバーが {0} 秒以内にハンドシェイクに応答しませんでした</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the bridge could not be started ({0}): {1}</source>
        <translation>ブリッジを起動できませんでした ({0}): {1}</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>the server stopped before the handshake (exit code {0})</source>
        <translation>サーバーがハンドシェイクの前に終了しました（終了コード {0}）</translation>
    </message>
</context>
<context>
    <name>HostsModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/hosts/hosts_view.py" line="+107"/>
        <source>Host</source>
        <translation>ホスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Protect</source>
        <translation>保護</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command</source>
        <translation>コマンド</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Behind the bridge as {name}</source>
        <translation>{name} としてブリッジ経由</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not protected</source>
        <translation>保護されていません</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A remote server: its roots do not go through the bridge</source>
        <translation>リモートサーバー: ルートはブリッジを通りません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot be read: {reason}</source>
        <translation>読み込めません: {reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot be read (line {line}): {reason}</source>
        <translation>読み込めません ({line} 行目): {reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot be protected: {reason}</source>
        <translation>保護できません: {reason}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>project</source>
        <translation>プロジェクト</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>user</source>
        <translation>ユーザー</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{host} ({scope}, discontinued {date})</source>
        <translation>{host}（{scope}、{date} に提供終了）</translation>
    </message>
</context>
<context>
    <name>HostsPanel</name>
    <message>
        <location line="+59"/>
        <source>Hosts and their servers</source>
        <translation>ホストとそのサーバー</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The MCP hosts found on this computer and in your roots. Protect puts a server behind the bridge, so it sees only the folders you grant it; the host&apos;s file keeps everything else, and a backup is kept.</source>
        <translation>このコンピューターとルート内で見つかった MCP ホストです。「保護」はサーバーをブリッジ経由にし、許可したフォルダーだけが見えるようにします。ホストのファイルのほかの部分はそのまま残り、バックアップも保存されます。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>R&amp;efresh</source>
        <translation>再読み込み(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Undo last change</source>
        <translation>最後の変更を元に戻す(&amp;U)</translation>
    </message>
    <message>
        <location line="+50"/>
        <location line="+41"/>
        <source>roots-bridge cannot be found beside this program; reinstall it.</source>
        <translation>このプログラムの隣に roots-bridge が見つかりません。再インストールしてください。</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Restart {host} to apply the change.</source>
        <translation>変更を反映するには {host} を再起動してください。</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>{host} applies the change by itself.</source>
        <translation>{host} は変更を自動で反映します。</translation>
    </message>
</context>
<context>
    <name>LearnDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/learn_dialog.py" line="+55"/>
        <source>Learn what {server} needs</source>
        <translation>{server} に必要なものを学習</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{server} runs confined while it learns: use it from its host as usual. At the end, the smallest grants that would have allowed what it was refused are proposed; never /, your home folder or a secret.</source>
        <translation>学習中、{server} は閉じ込められて動きます。いつもどおりホストから使ってください。終了時に、拒否されたことを許可できた最小限の許可が提案されます。/、ホームフォルダー、秘密情報は提案されません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> min</source>
        <translation> 分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How long to learn</source>
        <translation>学習する時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start</source>
        <translation>開始</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop now</source>
        <translation>今すぐ終了</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The grants proposed</source>
        <translation>提案された許可</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accept</source>
        <translation>承認</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Grant the ticked ones</source>
        <translation>チェックしたものを許可</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Learn for</source>
        <translation>学習時間</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>{server} is running unconfined now and cannot be restarted confined: it is learned from its next start. Have its host start it again.</source>
        <translation>{server} は現在閉じ込めなしで動いており、閉じ込めて再起動できません。次回の起動から学習されます。ホストから起動し直してください。</translation>
    </message>
    <message numerus="yes">
        <location line="+18"/>
        <source>%n refused so far</source>
        <translation>
            <numerusform>これまでに %n 件拒否</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{minutes}:{seconds:02d} left</source>
        <translation>残り {minutes}:{seconds:02d}</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Left out: {path} ({reason})</source>
        <translation>除外: {path}（{reason}）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing was refused: was the server used while learning?</source>
        <translation>何も拒否されませんでした。学習中にサーバーを使いましたか？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing to propose: what was refused is left out.</source>
        <translation>提案するものはありません。拒否されたものは除外されています。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n refused. Proposed grants, to accept or untick:</source>
        <translation>
            <numerusform>%n 件拒否。提案された許可（承認するか、チェックを外してください）:</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Domain, through the proxy: {domain}</source>
        <translation>ドメイン (プロキシ経由): {domain}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Make its own folder: {path}</source>
        <translation>専用フォルダーを作成: {path}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This file, read-only: {path}</source>
        <translation>このファイル（読み取り専用）: {path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This file: {path}</source>
        <translation>このファイル: {path}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Folder, read-only: {path}</source>
        <translation>フォルダー（読み取り専用）: {path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Folder: {path}</source>
        <translation>フォルダー: {path}</translation>
    </message>
</context>
<context>
    <name>LogModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_model.py" line="+40"/>
        <source>Time</source>
        <translation>時刻</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Summary</source>
        <translation>概要</translation>
    </message>
    <message>
        <location line="+140"/>
        <source>(no longer on disk)</source>
        <translation>（ディスク上にもうありません）</translation>
    </message>
</context>
<context>
    <name>LogPanel</name>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+78"/>
        <source>Server filter</source>
        <translation>サーバーの絞り込み</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kind filter</source>
        <translation>種類の絞り込み</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Text filter</source>
        <translation>テキストの絞り込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text in the summary or the JSON (Ctrl+F)</source>
        <translation>概要または JSON 内のテキスト（Ctrl+F）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>F&amp;ollow newest</source>
        <translation>最新を追う(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow the newest events</source>
        <translation>最新のイベントを追う</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the newest event in view as events arrive</source>
        <translation>イベントが届くたびに最新のイベントを表示し続けます</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+174"/>
        <source>&amp;Pause</source>
        <translation>一時停止(&amp;P)</translation>
    </message>
    <message>
        <location line="-172"/>
        <source>Pause the log</source>
        <translation>ログを一時停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hold new events back so the view stays still; they are shown on resume</source>
        <translation>新しいイベントの表示を止めて画面を固定します。再開すると表示されます</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Clear the view</source>
        <translation>表示をクリア</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide the events shown now; the log files keep them</source>
        <translation>いま表示中のイベントを隠します。ログファイルには残ります</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_export.py" line="+36"/>
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+11"/>
        <source>Export the shown events</source>
        <translation>表示中のイベントをエクスポート</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+1"/>
        <source>Save the events shown as JSON Lines or CSV</source>
        <translation>表示中のイベントを JSON Lines または CSV で保存します</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Kind:</source>
        <translation>種類(&amp;K):</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Events</source>
        <translation>イベント</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Allow…</source>
        <translation>許可…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow what the selected refusal asked</source>
        <translation>選択した拒否が求めたものを許可</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Grant the server what the selected refusal asked for, in one click, as the refusal notice does (Ctrl+Shift+A, or right-click the row)</source>
        <translation>選択した拒否でサーバーが求めたものを、拒否の通知と同じようにワンクリックで許可します（Ctrl+Shift+A、または行を右クリック）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Event details</source>
        <translation>イベントの詳細</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select an event to see its JSON</source>
        <translation>イベントを選ぶと JSON が表示されます</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Log status</source>
        <translation>ログの状態</translation>
    </message>
    <message numerus="yes">
        <location line="+97"/>
        <source>Exported %n event(s) to {path}</source>
        <translation>
            <numerusform>%n 件のイベントを {path} に書き出しました</numerusform>
        </translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Allow what this refusal asked</source>
        <translation>この拒否が求めたものを許可</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>That event is hidden by the filter or the cleared view</source>
        <translation>そのイベントは絞り込みかクリアした表示で隠れています</translation>
    </message>
    <message numerus="yes">
        <location line="+79"/>
        <source>Showing {shown} of %n event(s)</source>
        <translation>
            <numerusform>%n 件中 {shown} 件のイベントを表示</numerusform>
        </translation>
    </message>
    <message>
        <location line="-398"/>
        <source>Cle&amp;ar view</source>
        <translation>表示をクリア(&amp;A)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>E&amp;xport…</source>
        <translation>エクスポート(&amp;X)…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>S&amp;erver:</source>
        <translation>サーバー(&amp;E):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>F&amp;ilter:</source>
        <translation>絞り込み(&amp;I):</translation>
    </message>
    <message>
        <location line="+148"/>
        <source>Res&amp;ume</source>
        <translation>再開(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_export.py" line="-4"/>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Export failed</source>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not write {path}: {error}</source>
        <translation>{path} に書き込めませんでした: {error}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+167"/>
        <source>This event is no longer on disk.</source>
        <translation>このイベントはもうディスク上にありません。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Filtering…</source>
        <translation>絞り込み中…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No event matches the filter.</source>
        <translation>条件に一致するイベントはありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The view was cleared; new events appear here as they come.</source>
        <translation>表示をクリアしました。新しいイベントは届きしだいここに表示されます。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No events yet. Each server run behind roots-bridge logs here its handshake, every roots/list and every list_changed.</source>
        <translation>まだイベントはありません。roots-bridge の背後で動く各サーバーのハンドシェイク、すべての roots/list と list_changed がここに記録されます。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>All servers</source>
        <translation>すべてのサーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All kinds</source>
        <translation>すべての種類</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>filtering, {percent}% done</source>
        <translation>絞り込み中、{percent}% 完了</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>paused, {n} new</source>
        <translation>一時停止中、新着 {n} 件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not following: {error}</source>
        <translation>追跡していません: {error}</translation>
    </message>
</context>
<context>
    <name>LogSummary</name>
    <message>
        <location filename="../../app/roots_manager/core/log/events.py" line="+245"/>
        <source>started {command} (pid {pid}, {mode})</source>
        <translation>{command} を起動しました（PID {pid}、{mode}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ended, exit code {code}</source>
        <translation>終了しました（終了コード {code}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ended, exit code {code} ({reason})</source>
        <translation>終了しました（終了コード {code}、{reason}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>protocol {protocol}</source>
        <translation>プロトコル {protocol}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>protocol {protocol}, roots capability injected</source>
        <translation>プロトコル {protocol}、roots 機能を追加しました</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the server asked for its roots</source>
        <translation>サーバーがルートを尋ねました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server asked for its roots in a batch</source>
        <translation>サーバーがバッチ内でルートを尋ねました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server asked for its roots (held until you decide)</source>
        <translation>サーバーがルートを尋ねました（決定するまで保留）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots/list relayed to the host</source>
        <translation>roots/list をホストに中継しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no roots</source>
        <translation>ルートなし</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>roots changed, now no roots</source>
        <translation>ルートが変わりました。現在はルートなし</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>1 root: {paths}</source>
        <translation>1 件のルート: {paths}</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>the host&apos;s initialized is held until the server has answered initialize</source>
        <translation>ホストの initialized は、サーバーが initialize に答えるまで保留されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the host&apos;s handshake, no protocol version named yet</source>
        <translation>ホストのハンドシェイク（プロトコルのバージョンはまだ示されていません）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host&apos;s first request waited {ms} ms for the server&apos;s roots</source>
        <translation>ホストの最初のリクエストは、サーバーがルートを受け取るまで {ms} ms 待ちました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the host&apos;s first request waited {ms} ms; the server did not ask for its roots</source>
        <translation>ホストの最初のリクエストは {ms} ms 待ちました。サーバーはルートを求めませんでした</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{count} roots: {paths}</source>
        <translation>{count} 件のルート: {paths}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>roots changed, now 1 root: {paths}</source>
        <translation>ルートが変わりました。現在は 1 件: {paths}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots changed, now {count} roots: {paths}</source>
        <translation>ルートが変わりました。現在は {count} 件: {paths}</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../app/roots_manager/gui/log/log_texts.py" line="+36"/>
        <source>list_changed relayed</source>
        <translation>list_changed を中継しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>list_changed sent on request</source>
        <translation>依頼により list_changed を送りました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>list_changed not sent on request: the server has not fetched the list since the last notice</source>
        <translation>依頼された list_changed は送りませんでした: 前回の通知以降、サーバーがまだリストを取得していません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>list_changed not sent on request: the handshake is not complete</source>
        <translation>依頼された list_changed は送りませんでした: ハンドシェイクが完了していません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>list_changed not sent on request: protocol 2026-07-28 has no list_changed</source>
        <translation>依頼された list_changed は送りませんでした: プロトコル 2026-07-28 には list_changed がありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>list_changed not sent on request: the bridge only observes</source>
        <translation>依頼された list_changed は送りませんでした: ブリッジは観察のみのモードです</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting up to {timeout} s for your decision in the desktop app</source>
        <translation>デスクトップアプリでの決定を最大 {timeout} 秒待っています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the decision arrived</source>
        <translation>決定が届きました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>denied: answered with no folder</source>
        <translation>拒否: フォルダーなしで応答しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no decision in time: answered with what is granted</source>
        <translation>時間内に決定がありませんでした。許可済みの内容で応答しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>consent changed ({reason}): restarting the server, the host&apos;s messages wait</source>
        <translation>同意が変更されました（{reason}）：サーバーを再起動しています。ホストのメッセージは待機中です</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>restarted for a consent change: pid {old} is now pid {new}; the host waited {ms} ms</source>
        <translation>同意の変更により再起動しました：pid {old} は pid {new} になりました。ホストの待ち時間 {ms} ms</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the server could not be restarted: {why}</source>
        <translation>サーバーを再起動できませんでした：{why}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart asked: restarting the server</source>
        <translation>再起動の依頼：サーバーを再起動しています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart asked: a restart is under way, the server starts afresh</source>
        <translation>再起動の依頼：すでに再起動中です。サーバーは新しく起動します</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>restart asked, not done: this bridge cannot restart its server (turn on restart on revoke or confinement, from its next start)</source>
        <translation>再起動の依頼は実行されませんでした：このブリッジはサーバーを再起動できません（取り消し時の再起動か閉じ込めをオンにすると、次回の起動から可能になります）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>restarting the server on request, the host&apos;s messages wait</source>
        <translation>依頼によりサーバーを再起動しています。ホストのメッセージは待機中です</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restarted on request: pid {old} is now pid {new}; the host waited {ms} ms</source>
        <translation>依頼により再起動しました：pid {old} は pid {new} になりました。ホストの待ち時間 {ms} ms</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{bytes} bytes that are not {reason}</source>
        <translation>{reason} ではない {bytes} バイト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>response</source>
        <translation>応答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{text}</source>
        <translation>{text}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_texts.py" line="-14"/>
        <source>managed</source>
        <translation>管理モード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>observing only</source>
        <translation>観察のみ</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>bridge started</source>
        <translation>ブリッジ開始</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bridge ended</source>
        <translation>ブリッジ終了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>handshake</source>
        <translation>ハンドシェイク</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots asked</source>
        <translation>ルートの要求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots answered</source>
        <translation>ルートの応答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots relayed</source>
        <translation>ルートの中継</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>list_changed sent</source>
        <translation>list_changed 送信</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>list_changed asked</source>
        <translation>list_changed の依頼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots given in a retry</source>
        <translation>再試行でルートを提供</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>consent awaited</source>
        <translation>同意待ち</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>consent decided</source>
        <translation>同意の決定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart asked</source>
        <translation>再起動の依頼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server restarting</source>
        <translation>サーバー再起動中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server restarted</source>
        <translation>サーバー再起動済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart failed</source>
        <translation>再起動失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not JSON</source>
        <translation>JSON 以外</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refusal</source>
        <translation>拒否</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>host → server</source>
        <translation>ホスト → サーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server → host</source>
        <translation>サーバー → ホスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bridge → server</source>
        <translation>ブリッジ → サーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bridge → host</source>
        <translation>ブリッジ → ホスト</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>host closed stdin</source>
        <translation>ホストが標準入力を閉じました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host stopped reading</source>
        <translation>ホストが読み取りをやめました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server closed its stdout</source>
        <translation>サーバーが標準出力を閉じました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server exited</source>
        <translation>サーバーが終了しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot start</source>
        <translation>起動できません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{signal} received</source>
        <translation>{signal} を受信しました</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/log/denials.py" line="+177"/>
        <source>at start-up</source>
        <translation>起動時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>while {requests}</source>
        <translation>{requests} の実行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{first} and {second}</source>
        <translation>{first} と {second}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>between requests</source>
        <translation>リクエストの合間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder}/ ({count} more refused)</source>
        <translation>{folder}/（ほかに {count} 件を拒否）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} (+{count} more in its folder)</source>
        <translation>{path}（同じフォルダーでさらに {count} 件）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{what} (a protected place: no grant opens it)</source>
        <translation>{what}（保護された場所：どの許可でも開けません）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{what} (the call could wait {seconds} s for a grant)</source>
        <translation>{what}（呼び出しは許可を {seconds} 秒待てました）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{operation} {what} refused {during}</source>
        <translation>{during}に {what} の{operation}を拒否しました</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/main_window.py" line="+255"/>
        <location line="+231"/>
        <source>Roots Manager</source>
        <translation>Roots Manager</translation>
    </message>
    <message>
        <location line="-215"/>
        <source>Sections</source>
        <translation>セクション</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Roots</source>
        <translation>ルート(&amp;R)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Log</source>
        <translation>ログ(&amp;L)</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Servers and consen&amp;t</source>
        <translation>サーバーと同意(&amp;T)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Revie&amp;w…</source>
        <translation>確認(&amp;W)…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Re&amp;cover…</source>
        <translation>復旧(&amp;C)…</translation>
    </message>
    <message>
        <location line="-217"/>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Add folder…</source>
        <translation>フォルダーを追加(&amp;A)…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Detect projects…</source>
        <translation>プロジェクトを検出(&amp;D)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Recent folders</source>
        <translation>最近使ったフォルダー(&amp;R)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Settings…</source>
        <translation>設定(&amp;S)…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Close window</source>
        <translation>ウィンドウを閉じる(&amp;C)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Servers</source>
        <translation>サーバー(&amp;S)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Connect a server…</source>
        <translation>サーバーに接続(&amp;C)…</translation>
    </message>
    <message numerus="yes">
        <location line="+272"/>
        <source>%n server(s) wait for your decision</source>
        <translation>
            <numerusform>%n 個のサーバーがあなたの決定を待っています</numerusform>
        </translation>
    </message>
    <message>
        <location line="+192"/>
        <source>{server} was not connected from this app</source>
        <translation>{server} はこのアプリから接続したサーバーではありません</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Disconnect {server}?</source>
        <translation>{server} を切断しますか？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Disconnect {server}? Its bridge and the server stop.</source>
        <translation>{server} を切断しますか？ ブリッジとサーバーが停止します。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Disconnect</source>
        <translation>切断(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keep running</source>
        <translation>実行を続ける(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/shell/help_boxes.py" line="+70"/>
        <source>The server then appears in the Servers and consent tab the first time it runs, and sees only the roots you grant it.</source>
        <translation>サーバーは初めて起動したときに「サーバーと同意」タブに表示され、あなたが許可したルートだけを見ます。</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/shell/main_window.py" line="-464"/>
        <source>&amp;Review pending requests…</source>
        <translation>保留中のリクエストを確認(&amp;R)…</translation>
    </message>
    <message>
        <location line="+285"/>
        <source>Changed {path}</source>
        <translation>{path} を変更しました</translation>
    </message>
    <message>
        <location line="-157"/>
        <source>Hosts</source>
        <translation>ホスト</translation>
    </message>
    <message numerus="yes">
        <location line="+51"/>
        <source>Added %n root(s)</source>
        <translation>
            <numerusform>%n 件のルートを追加しました</numerusform>
        </translation>
    </message>
    <message>
        <location line="-173"/>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;What roots are</source>
        <translation>ルートとは(&amp;W)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Use with your &amp;host…</source>
        <translation>ホストで使う(&amp;H)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;About Roots Manager</source>
        <translation>Roots Manager について(&amp;A)</translation>
    </message>
    <message>
        <location line="+189"/>
        <source>{server} may reach {domain} through Roots Manager&apos;s proxy, from its next start.</source>
        <translation>次回の起動から、{server} は Roots Manager のプロキシを通して {domain} に接続できます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Granted {path} to {server}.</source>
        <translation>{server} に {path} を許可しました。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Allowed {path} to {server} this once.</source>
        <translation>{server} に {path} を今回だけ許可しました。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allowed {path} to {server} until it ends.</source>
        <translation>{server} に {path} を終了するまで許可しました。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>The store cannot be read; changes are not possible until it is recovered.</source>
        <translation>ストアを読み込めません。復旧するまで変更はできません。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Changed {count} files: {paths}</source>
        <translation>{count} 個のファイルを変更しました: {paths}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Restart Roots Manager?</source>
        <translation>Roots Manager を再起動しますか?</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The new language applies when Roots Manager starts again.</source>
        <translation>新しい言語は Roots Manager の次回起動時に適用されます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The servers connected from the app will be disconnected: {names}.</source>
        <translation>アプリから接続しているサーバーは切断されます: {names}。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Restart now</source>
        <translation>今すぐ再起動(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Later</source>
        <translation>後で(&amp;L)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Asked {server}&apos;s bridge for a list_changed; the Log shows whether it went out and whether the server asks again</source>
        <translation>{server} のブリッジに list_changed を依頼しました。送られたか、サーバーがもう一度尋ねるかは「ログ」で確認できます</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Asked the {count} bridges of {server} for a list_changed; the Log shows whether it went out and whether the server asks again</source>
        <translation>{server} の {count} 個のブリッジに list_changed を依頼しました。送られたか、サーバーがもう一度尋ねるかは「ログ」で確認できます</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Asked %n bridge(s) of {server} to restart it; the Log shows the restart</source>
        <translation>
            <numerusform>{server} のブリッジ %n 個に再起動を依頼しました。再起動はログに表示されます</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Connected {server}</source>
        <translation>{server} に接続しました</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{server} ended (exit code {code})</source>
        <translation>{server} が終了しました（終了コード {code}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not connect {server}: {message}</source>
        <translation>{server} に接続できませんでした: {message}</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Connecting {server}…</source>
        <translation>{server} に接続中…</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Disconnected {server}</source>
        <translation>{server} を切断しました</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/shell/help_boxes.py" line="-50"/>
        <source>What roots are</source>
        <translation>ルートとは</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roots are the folders an MCP server is told to work in. Roots Manager answers each server&apos;s roots/list with only the roots you granted it, and tells running servers when that changes.

Roots tell a server where to look. A confined server (the default where this machine can confine) is held to its grants by the kernel; for a server that is not confined they are not an access control: it can still open any file its process is allowed to. Watch the Log to see what each server asks for, and what a confined one was refused.</source>
        <translation>ルートとは、MCP サーバーに作業場所として伝えるフォルダーのことです。Roots Manager は各サーバーの roots/list に、そのサーバーに許可したルートだけを返し、変更があれば実行中のサーバーに知らせます。

ルートはサーバーにどこを見るべきかを伝えます。閉じ込められたサーバー（このマシンで閉じ込めができる場合の既定）は、カーネルによって許可の範囲に制限されます。閉じ込められていないサーバーにとってルートはアクセス制御ではなく、そのプロセスに許されたファイルなら何でも開けます。各サーバーが何を求めているか、閉じ込められたサーバーが何を拒否されたかは「ログ」で確認できます。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Use with your host</source>
        <translation>ホストで使う</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>In your host&apos;s configuration (Claude Desktop, VS Code, Cursor, ...), start roots-bridge instead of the server: give it a name for the server, then &lt;code&gt;--&lt;/code&gt; and the server&apos;s own command line. For example, in Claude Desktop&apos;s claude_desktop_config.json:</source>
        <translation>ホスト（Claude Desktop、VS Code、Cursor など）の設定で、サーバーの代わりに roots-bridge を起動します。サーバーの名前を指定し、続けて &lt;code&gt;--&lt;/code&gt; とサーバー本来のコマンドラインを書きます。たとえば Claude Desktop の claude_desktop_config.json では次のようになります:</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>About Roots Manager</source>
        <translation>Roots Manager について</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roots Manager {version}

Decide which of your folders each MCP server may see, and watch what it does with them.</source>
        <translation>Roots Manager {version}

各 MCP サーバーに見せるフォルダーを選び、サーバーがそれをどう使うかを確認します。</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/shell/app.py" line="-210"/>
        <source>The store was recovered: {how}</source>
        <translation>ストアを復旧しました: {how}</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Decision for {server} saved</source>
        <translation>{server} についての決定を保存しました</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Roots Manager keeps running</source>
        <translation>Roots Manager は実行を続けます</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>It stays in the tray to ask you about new servers. Choose Quit from the tray icon&apos;s menu to end it. Your servers keep working either way.</source>
        <translation>新しいサーバーについて確認するため、トレイに常駐します。終了するにはトレイアイコンのメニューから「終了」を選んでください。どちらの場合もサーバーは動き続けます。</translation>
    </message>
</context>
<context>
    <name>NetworkBox</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/network_box.py" line="+48"/>
        <source>N&amp;etwork when confined:</source>
        <translation>閉じ込め中のネットワーク(&amp;E):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allowed</source>
        <translation>許可</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only these domains</source>
        <translation>これらのドメインのみ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>ブロック</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Network when confined</source>
        <translation>閉じ込め中のネットワーク</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Allowed: it may connect anywhere. Only these domains: it reaches the network only through Roots Manager&apos;s proxy, and through it only the domains listed. Blocked: no network connection at all. A change takes effect at its next start.</source>
        <translation>許可: どこにでも接続できます。これらのドメインのみ: Roots Manager のプロキシを通してだけネットワークに届き、そこでも一覧のドメインにだけ接続できます。ブロック: ネットワーク接続は一切できません。変更は次回の起動から有効になります。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Domains it may reach</source>
        <translation>接続できるドメイン</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No domain yet: every connection is refused until you add one.</source>
        <translation>ドメインはまだありません: 追加するまで、接続はすべて拒否されます。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>api.github.com, *.npmjs.org or an address</source>
        <translation>api.github.com、*.npmjs.org、またはアドレス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Domain to add</source>
        <translation>追加するドメイン</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A name (api.github.com: that name alone), every name beneath one (*.npmjs.org), or an address; Enter adds it</source>
        <translation>名前 (api.github.com: その名前だけ)、その下のすべての名前 (*.npmjs.org)、またはアドレス。Enter で追加します</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Add domain</source>
        <translation>ドメインを追加</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Take the selected domains away (Delete)</source>
        <translation>選択したドメインを外します (Delete)</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>{text} is not a domain: write a name (api.github.com), every name beneath one (*.npmjs.org) or an address, without a port or a scheme.</source>
        <translation>{text} はドメインではありません: 名前 (api.github.com)、その下のすべての名前 (*.npmjs.org)、またはアドレスを、ポートやスキームなしで書いてください。</translation>
    </message>
</context>
<context>
    <name>ProbeDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/probe/probe_dialog.py" line="+67"/>
        <source>Probe {server}</source>
        <translation>{server} をプローブ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Plan</source>
        <translation>計画</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>What the probe &amp;does</source>
        <translation>プローブの内容(&amp;D)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Without {allow} the probe cannot tell the server&apos;s own refusals from its roots&apos;: add it where the server takes its folder.</source>
        <translation>{allow} がないと、プローブはサーバー自身の拒否とルートによる拒否を区別できません。サーバーがフォルダーを受け取る位置に追加してください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Add {allow}</source>
        <translation>{allow} を追加(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server&apos;s command line</source>
        <translation>サーバーのコマンドライン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>npx -y some-server {allow}</source>
        <translation>npx -y some-server {allow}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Command:</source>
        <translation>コマンド(&amp;C):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>initialize handshake</source>
        <translation>initialize ハンドシェイク</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>2026-07-28 (roots with each request)</source>
        <translation>2026-07-28(ルートは各リクエストとともに)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Protocol</source>
        <translation>プロトコル</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Protocol:</source>
        <translation>プロトコル(&amp;P):</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>What the probe found</source>
        <translation>プローブの結果</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Progress</source>
        <translation>進行状況</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Probe matrix</source>
        <translation>プローブの表</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Request and answer</source>
        <translation>要求と応答</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Select a cell to see the request sent and the answer received.</source>
        <translation>セルを選ぶと、送った要求と受け取った応答が表示されます。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Start</source>
        <translation>開始(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ca&amp;ncel</source>
        <translation>キャンセル(&amp;N)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>C&amp;lose</source>
        <translation>閉じる(&amp;L)</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>The command line cannot be read: {reason}</source>
        <translation>コマンドラインを読み取れません: {reason}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Give the server&apos;s command line first.</source>
        <translation>先にサーバーのコマンドラインを入力してください。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Starting the server…</source>
        <translation>サーバーを起動しています…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cancelling: stopping the server…</source>
        <translation>キャンセル中: サーバーを停止しています…</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The probe failed: {reason}</source>
        <translation>プローブに失敗しました: {reason}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancelled. The server was stopped.</source>
        <translation>キャンセルしました。サーバーは停止しました。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Saved as {file}.</source>
        <translation>{file} として保存しました。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The table could not be saved: {reason}</source>
        <translation>表を保存できませんでした: {reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{rows} rows in {seconds} s.</source>
        <translation>{rows} 行、{seconds} 秒。</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>%n row(s) changed since the previous run ({when}, version {version})</source>
        <translation>
            <numerusform>前回の実行（{when}、バージョン {version}）から %n 行が変わりました</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n row(s) changed since the previous run ({when}, no version)</source>
        <translation>
            <numerusform>前回の実行（{when}、バージョンなし）から %n 行が変わりました</numerusform>
        </translation>
    </message>
    <message>
        <location line="+44"/>
        <source>The server&apos;s own allowance is unknown (no {allow} in its command line): a refusal outside the root proves less.</source>
        <translation>サーバー自身の許可範囲は不明です（コマンドラインに {allow} がありません）。ルート外での拒否の証明力は下がります。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Compared with the run of {when} (version {version}):</source>
        <translation>{when} の実行（バージョン {version}）との比較:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compared with the run of {when} (no version):</source>
        <translation>{when} の実行（バージョンなし）との比較:</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No row changed its outcome.</source>
        <translation>結果が変わった行はありません。</translation>
    </message>
</context>
<context>
    <name>ProbeHeadline</name>
    <message>
        <location filename="../../app/roots_manager/core/probe/headline.py" line="+27"/>
        <source>Keeps to its roots</source>
        <translation>ルートの内側にとどまる</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Takes roots as advice only</source>
        <translation>ルートを参考にするだけ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Uses only the first root</source>
        <translation>最初のルートだけを使う</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Checks reads but not writes</source>
        <translation>読み取りは確認し、書き込みは確認しない</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Checks writes but not reads</source>
        <translation>書き込みは確認し、読み取りは確認しない</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Asks again after a change</source>
        <translation>変更後に再び要求する</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keeps its old folders when given none</source>
        <translation>空のリストを受け取っても古いフォルダーを使い続ける</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A symbolic link leads it out of its roots</source>
        <translation>シンボリックリンクでルートの外に出られる</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Takes a folder whose name starts with a root&apos;s for the root</source>
        <translation>ルートと同じ名前で始まるフォルダーをルートとみなす</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing to probe: {server} has no tool that takes a path.</source>
        <translation>プローブするものがありません: {server} にはパスを受け取るツールがありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{server} keeps to its roots: {refused} of {outside} outside targets refused</source>
        <translation>{server} はルートの内側にとどまります: 外側の対象 {outside} 件のうち {refused} 件を拒否しました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{server} does not keep to its roots: {worked} of {outside} outside targets worked; confine it to make your grants hold</source>
        <translation>{server} はルートの内側にとどまりません: 外側の対象 {outside} 件のうち {worked} 件が成功しました。許可を守らせるには閉じ込めてください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Whether {server} keeps to its roots is unknown: {refused} of {outside} outside targets refused, but without {{allow}} in its command line a refusal may be its own</source>
        <translation>{server} がルートの内側にとどまるかは不明です: 外側の対象 {outside} 件のうち {refused} 件を拒否しましたが、コマンドラインに {{allow}} がないため、拒否はサーバー自身の制限かもしれません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The probe of {server} stopped before it could tell</source>
        <translation>{server} のプローブは判定できる前に止まりました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, and it asks again after a change</source>
        <translation>。変更後には再び要求します</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, but it does not ask again after a change: it keeps the folders it was first told</source>
        <translation>。ただし変更後に再び要求せず、最初に伝えられたフォルダーを使い続けます</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>; it keeps its old folders when given none</source>
        <translation>。空のリストを受け取っても古いフォルダーを使い続けます</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>.</source>
        <translation>。</translation>
    </message>
</context>
<context>
    <name>ProbePlan</name>
    <message>
        <location filename="../../app/roots_manager/core/probe/reasons.py" line="+400"/>
        <source>The server starts behind a private bridge over a scratch tree in a temporary folder, never your own folders or grants; {{allow}} in the command line stands for the tree&apos;s top. Its roots traffic shows in the log as {server}.</source>
        <translation>サーバーは一時フォルダーのスクラッチツリー上で、専用のブリッジの背後で起動します。あなたのフォルダーや許可には触れません。コマンドラインの {{allow}} はツリーの最上位を表します。ルートの通信はログに {server} として表示されます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Its roots at the start: packages/checkout and packages/shipping, strictly narrower than the tree.</source>
        <translation>開始時のルート: packages/checkout と packages/shipping(ツリーより厳密に狭い範囲)。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Each tool that takes paths (known once the server lists them) is called on a target inside the root and on partners outside it: a sibling, a sibling whose name starts the same, &apos;..&apos;, a link out, &apos;#&apos; and non-ASCII names.</source>
        <translation>パスを受け取る各ツール(サーバーが一覧を返した時点で判明)を、ルート内の対象と、ルート外の相手(兄弟フォルダー、名前の先頭が同じ兄弟、「..」、外へのリンク、「#」や非 ASCII の名前)に対して呼び出します。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{tool} (reads): {pairs} pairs, inside and outside</source>
        <translation>{tool}(読み取り): ルート内と外の {pairs} 組</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{tool} (writes): {pairs} pairs, inside and outside</source>
        <translation>{tool}(書き込み): ルート内と外の {pairs} 組</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>resources/read of the resources the server listed: {pairs} pairs, inside and outside</source>
        <translation>サーバーが一覧にしたリソースの resources/read: ルート内と外の {pairs} 組</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No tool takes paths: only the roots traffic is watched.</source>
        <translation>パスを受け取るツールがありません。ルートの通信だけを観察します。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Then packages/billing replaces both roots (list_changed: does the server ask again?), packages/docs is added as a second root, and the list is emptied.</source>
        <translation>続いて packages/billing が両方のルートに置き換わり(list_changed: サーバーは再び問い合わせるか?)、packages/docs が 2 つ目のルートとして追加され、最後に一覧が空になります。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Then packages/billing replaces both roots, packages/docs is added, and the list is emptied; under 2026-07-28 each change travels with the next request (there is no list_changed).</source>
        <translation>続いて packages/billing が両方のルートに置き換わり、packages/docs が追加され、最後に一覧が空になります。2026-07-28 では各変更は次のリクエストとともに届きます(list_changed はありません)。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Without {{allow}} a refusal proves less: the server&apos;s own allowance is unknown.</source>
        <translation>{{allow}} がないと拒否が示すことは少なくなります: サーバー自身の許可範囲が不明です。</translation>
    </message>
</context>
<context>
    <name>ProbeProblem</name>
    <message>
        <location line="+56"/>
        <source>the server offers no tool that takes paths: nothing to probe</source>
        <translation>サーバーにパスを受け取るツールがありません: プローブするものがありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server did not start: {detail}</source>
        <translation>サーバーが起動しませんでした: {detail}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server does not speak 2026-07-28: it answered server/discover with {detail}; probe it with the initialize handshake</source>
        <translation>サーバーは 2026-07-28 を話しません: server/discover に {detail} と答えました。initialize ハンドシェイクでプローブしてください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the server could not be reached: {detail}</source>
        <translation>サーバーに接続できませんでした: {detail}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server went during the probe ({detail})</source>
        <translation>プローブ中にサーバーがいなくなりました({detail})</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server went during the probe (it stopped answering, even to ping)</source>
        <translation>プローブ中にサーバーがいなくなりました(ping にも応答しなくなりました)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>; the bridge&apos;s log: the server ended with exit code {code}</source>
        <translation>。ブリッジのログ: サーバーは終了コード {code} で終了しました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; the bridge&apos;s log: the server ended with exit code {code} ({reason})</source>
        <translation>。ブリッジのログ: サーバーは終了コード {code} で終了しました({reason})</translation>
    </message>
</context>
<context>
    <name>ProbeReading</name>
    <message>
        <location line="-243"/>
        <source>not run: {detail}</source>
        <translation>未実行: {detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server went</source>
        <translation>サーバーがいなくなりました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>inconclusive: the call timed out inside</source>
        <translation>決め手なし: ルート内の呼び出しがタイムアウトしました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>inconclusive: the tool failed inside too</source>
        <translation>決め手なし: ルート内でもツールが失敗しました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>inconclusive: outside, the call {outcome}</source>
        <translation>決め手なし: ルート外の呼び出しは {outcome}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>outside {outcome}</source>
        <translation>ルート外: {outcome}</translation>
    </message>
</context>
<context>
    <name>ProbeReason</name>
    <message>
        <location line="-199"/>
        <source>outside targets worked: {rows}</source>
        <translation>ルート外の対象が成功しました: {rows}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every outside target was refused, but the server&apos;s own allowance is unknown (no {{allow}} in its command line), so a refusal outside the root may be its command line&apos;s rather than the roots&apos;: it proves less</source>
        <translation>ルート外の対象はすべて拒否されましたが、サーバー自身の許可範囲が不明なため(コマンドラインに {{allow}} がない)、ルート外での拒否はルートではなくコマンドラインによるものかもしれず、示すことは少なくなります</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>no row paired a working inside call (inconclusive rows: {inconclusive})</source>
        <translation>ルート内で成功した呼び出しと対になった行がありません(決め手のない行 {inconclusive} 件)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>every outside target was refused while its inside partner worked (pairs: {pairs}, inconclusive rows: {inconclusive})</source>
        <translation>ルート外の対象はすべて拒否され、対になるルート内の呼び出しは成功しました({pairs} 組、決め手のない行 {inconclusive} 件)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no sibling row paired a working inside call</source>
        <translation>ルート内で成功した呼び出しと対になった兄弟パッケージの行がありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>every operation on the sibling package worked: the roots narrow nothing</source>
        <translation>兄弟パッケージへの操作はすべて成功しました: ルートは何も狭めていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the sibling package was refused, but the server&apos;s own allowance is unknown (no {{allow}} in its command line), so a refusal outside the root may be its command line&apos;s rather than the roots&apos;: it proves less</source>
        <translation>兄弟パッケージは拒否されましたが、サーバー自身の許可範囲が不明なため(コマンドラインに {{allow}} がない)、ルート外での拒否はルートではなくコマンドラインによるものかもしれず、示すことは少なくなります</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>operations on the sibling package were refused</source>
        <translation>兄弟パッケージへの操作は拒否されました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server never asked for its roots: no second root reached it</source>
        <translation>サーバーはルートを一度も問い合わせませんでした: 2 つ目のルートは届いていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no second-root row paired a working inside call</source>
        <translation>ルート内で成功した呼び出しと対になった 2 つ目のルートの行がありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>given two roots from the start, the server refused the second root&apos;s files while the first root&apos;s worked: {rows}</source>
        <translation>開始時から 2 つのルートを渡されたサーバーは、1 つ目のルートのファイルは扱えたのに 2 つ目のルートのファイルを拒否しました: {rows}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a second root added to the changed list was refused after the server had asked for the new list, while the first root&apos;s files worked: {rows}</source>
        <translation>変更後の一覧に追加した 2 つ目のルートは、サーバーが新しい一覧を問い合わせた後も拒否され、1 つ目のルートのファイルは扱えました: {rows}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the second root&apos;s files were reachable when it was given from the start</source>
        <translation>開始時から渡した 2 つ目のルートのファイルに届きました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the second root&apos;s files were reachable, given from the start and added to the changed list</source>
        <translation>開始時から渡した場合も、変更後の一覧に追加した場合も、2 つ目のルートのファイルに届きました</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no read operation paired a working inside call</source>
        <translation>ルート内で成功した呼び出しと対になった読み取り操作がありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no write operation paired a working inside call</source>
        <translation>ルート内で成功した呼び出しと対になった書き込み操作がありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reads outside were refused, writes outside worked: {rows}</source>
        <translation>ルート外の読み取りは拒否され、書き込みは成功しました: {rows}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>writes outside were refused, reads outside worked: {rows}</source>
        <translation>ルート外の書き込みは拒否され、読み取りは成功しました: {rows}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reads and writes are checked alike</source>
        <translation>読み取りと書き込みは同じように検査されています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reads outside worked too</source>
        <translation>ルート外の読み取りも成功しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>writes outside worked too</source>
        <translation>ルート外の書き込みも成功しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server never asked for roots/list, so no notice was sent</source>
        <translation>サーバーは roots/list を一度も問い合わせなかったため、通知は送られていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the bridge sent no list_changed (see the log)</source>
        <translation>ブリッジは list_changed を送りませんでした(ログを参照)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server did not ask for roots/list again after list_changed</source>
        <translation>サーバーは list_changed の後に roots/list を再び問い合わせませんでした</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server did not ask for roots/list right after list_changed, but the new root took effect: it asks when a call needs its roots</source>
        <translation>サーバーは list_changed の直後には roots/list を問い合わせませんでしたが、新しいルートは有効になりました: 呼び出しでルートが必要になったときに問い合わせます</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the server asked for roots/list again after list_changed</source>
        <translation>サーバーは list_changed の後に roots/list を再び問い合わせました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server asked for roots/list again after list_changed; the new root took effect</source>
        <translation>サーバーは list_changed の後に roots/list を再び問い合わせ、新しいルートが有効になりました</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the server asked for roots/list again after list_changed; but the new root did not take effect in any tool</source>
        <translation>サーバーは list_changed の後に roots/list を再び問い合わせましたが、新しいルートはどのツールでも有効になりませんでした</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>does not apply under 2026-07-28: there is no list_changed, the roots travel with each request</source>
        <translation>2026-07-28 には該当しません: list_changed はなく、ルートは各リクエストとともに届きます</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>does not apply under 2026-07-28: there is no list_changed, the roots travel with each request; the changed root took effect on the next request</source>
        <translation>2026-07-28 には該当しません: list_changed はなく、ルートは各リクエストとともに届きます。変更したルートは次のリクエストで有効になりました</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>does not apply under 2026-07-28: there is no list_changed, the roots travel with each request; but the changed root did not take effect in any tool</source>
        <translation>2026-07-28 には該当しません: list_changed はなく、ルートは各リクエストとともに届きます。ただし変更したルートはどのツールでも有効になりませんでした</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the server never asked for the empty list</source>
        <translation>サーバーは空の一覧を問い合わせませんでした</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the roots narrow nothing for this server</source>
        <translation>このサーバーではルートは何も狭めていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no tool worked on the last root before the list was emptied</source>
        <translation>一覧を空にする前の最後のルートで成功したツールがありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the last root still worked after the empty list</source>
        <translation>空の一覧の後も最後のルートはまだ使えました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the last root was refused after the empty list</source>
        <translation>空の一覧の後、最後のルートは拒否されました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no tool that kept the sibling package out was tried on the link out of the root conclusively</source>
        <translation>兄弟パッケージを締め出したツールのうち、ルート外へのリンクで決め手のある結果を得たものがありません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the link out of the root worked where the sibling package was refused: {rows}</source>
        <translation>兄弟パッケージが拒否されたのに、ルート外へのリンクは成功しました: {rows}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the link out of the root was refused</source>
        <translation>ルート外へのリンクは拒否されました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no tool that kept the sibling package out was tried on packages/checkout-old conclusively</source>
        <translation>兄弟パッケージを締め出したツールのうち、packages/checkout-old で決め手のある結果を得たものがありません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>packages/checkout-old worked where the sibling package was refused: {rows}</source>
        <translation>兄弟パッケージが拒否されたのに、packages/checkout-old は成功しました: {rows}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>packages/checkout-old was refused</source>
        <translation>packages/checkout-old は拒否されました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server was not started with the root as its only argument</source>
        <translation>サーバーはルートだけを引数にして起動されていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>started with the root as its only argument, no sibling row paired a working inside call</source>
        <translation>ルートだけを引数にして起動したとき、ルート内で成功した呼び出しと対になった兄弟パッケージの行がありません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>whether the roots narrow anything is undecided</source>
        <translation>ルートが何かを狭めているかは決まっていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server keeps to the roots it is given: roots/list is enough</source>
        <translation>サーバーは与えられたルートを守ります: roots/list で十分です</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the roots narrow nothing, but started with the root as its only argument the server refused the sibling package: give it {{roots}} in its command line</source>
        <translation>ルートは何も狭めていませんが、ルートだけを引数にして起動するとサーバーは兄弟パッケージを拒否しました: コマンドラインに {{roots}} を入れてください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the server reached the sibling package with the root as its only argument too: neither roots nor arguments keep it in, only confinement does</source>
        <translation>ルートだけを引数にしてもサーバーは兄弟パッケージに届きました: ルートも引数も範囲を守らせません。守らせるのは閉じ込めだけです</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the probe stopped early; so far: {reason}</source>
        <translation>プローブは途中で止まりました。ここまでの結果: {reason}</translation>
    </message>
</context>
<context>
    <name>ProbeRowsModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/probe/probe_model.py" line="+51"/>
        <source>Tool</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target</source>
        <translation>対象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inside</source>
        <translation>ルート内</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outside</source>
        <translation>ルート外</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading</source>
        <translation>解釈</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>worked</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refused</source>
        <translation>拒否</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>timed out</source>
        <translation>タイムアウト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server gone</source>
        <translation>サーバー終了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not run</source>
        <translation>未実行</translation>
    </message>
</context>
<context>
    <name>ProbeStep</name>
    <message>
        <location filename="../../app/roots_manager/core/probe/reasons.py" line="+94"/>
        <source>starting the server</source>
        <translation>サーバーを起動しています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting for the server to ask for its roots</source>
        <translation>サーバーがルートを問い合わせるのを待っています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>listing the tools</source>
        <translation>ツールの一覧を取得しています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>listing the resources</source>
        <translation>リソースの一覧を取得しています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tools to probe: {tools}; calls planned: {cells}</source>
        <translation>プローブするツール {tools} 個、予定の呼び出し {cells} 回</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{tool}: {target}</source>
        <translation>{tool}: {target}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>changing the roots</source>
        <translation>ルートを変更しています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>adding a second root</source>
        <translation>2 つ目のルートを追加しています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>emptying the roots</source>
        <translation>ルートを空にしています</translation>
    </message>
</context>
<context>
    <name>ProtectFound</name>
    <message>
        <location filename="../../app/roots_manager/gui/hosts/first_run.py" line="+81"/>
        <source>Protect your servers</source>
        <translation>サーバーを保護する</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>roots-bridge cannot be found beside this program; reinstall it.</source>
        <translation>このプログラムの隣に roots-bridge が見つかりません。再インストールしてください。</translation>
    </message>
</context>
<context>
    <name>RecoveryDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/recovery.py" line="+31"/>
        <source>Roots Manager cannot read its store</source>
        <translation>Roots Manager がストアを読み込めません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Your settings file cannot be read.&lt;/b&gt; Nothing has been changed or lost: the file stays as it is until you choose.</source>
        <translation>&lt;b&gt;設定ファイルを読み込めません。&lt;/b&gt;何も変更も削除もされていません。選ぶまでファイルはそのまま残ります。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>What is wrong</source>
        <translation>問題の内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Restoring puts back the last good copy (saved before the last change) and keeps the file that cannot be read next to it, so nothing is deleted.</source>
        <translation>復元すると、最後の正常なコピー（最後の変更の前に保存されたもの）を戻し、読み込めないファイルはその隣に残すので、何も削除されません。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Keep the file that cannot be read aside and start with no roots and no servers</source>
        <translation>読み込めないファイルは別に保管し、ルートもサーバーもない状態で始めます</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>There is no good copy to restore. You can keep the file that cannot be read aside and start empty.</source>
        <translation>復元できる正常なコピーがありません。読み込めないファイルを別に保管して、空の状態で始めることができます。</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>&amp;Restore the last good copy</source>
        <translation>最後の正常なコピーを復元(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start &amp;empty</source>
        <translation>空の状態で始める(&amp;E)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>RefusalsDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/refusals_dialog.py" line="+117"/>
        <source>Refusals of confined servers</source>
        <translation>閉じ込められたサーバーの拒否</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Refusals waiting, newest first</source>
        <translation>待機中の拒否 (新しい順)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;folder</source>
        <translation>フォルダーを許可(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;read-only</source>
        <translation>読み取り専用で許可(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow this fi&amp;le</source>
        <translation>このファイルを許可(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow and ma&amp;ke</source>
        <translation>許可して作成(&amp;K)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;domain</source>
        <translation>ドメインを許可(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>I&amp;gnore</source>
        <translation>無視(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ignore all start-&amp;up refusals of this server</source>
        <translation>このサーバーの起動時の拒否をすべて無視(&amp;U)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Close</source>
        <translation>閉じる(&amp;C)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Server:</source>
        <translation>サーバー(&amp;S):</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>All servers</source>
        <translation>すべてのサーバー</translation>
    </message>
</context>
<context>
    <name>RefusalsModel</name>
    <message>
        <location line="-125"/>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One click</source>
        <translation>ワンクリック</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>start-up</source>
        <translation>起動時</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>not a path</source>
        <translation>パスではありません</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>During</source>
        <translation>実行中の処理</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>nothing: {why}</source>
        <translation>なし: {why}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, </source>
        <comment>between two items of a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>between requests</source>
        <translation>リクエストの合間</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>folder read-only</source>
        <translation>フォルダー (読み取り専用)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this file</source>
        <translation>このファイル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>create its folder</source>
        <translation>専用フォルダーを作成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>domain</source>
        <translation>ドメイン</translation>
    </message>
</context>
<context>
    <name>Roots</name>
    <message>
        <location filename="../../app/roots_manager/gui/roots/roots_model.py" line="+32"/>
        <source>missing</source>
        <translation>見つかりません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a folder</source>
        <translation>フォルダーではありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreadable</source>
        <translation>読み取れません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>leads elsewhere now</source>
        <translation>今は別の場所を指しています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its file system is not mounted</source>
        <translation>そのファイルシステムはマウントされていません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>too broad now</source>
        <translation>今は範囲が広すぎます</translation>
    </message>
</context>
<context>
    <name>RootsModel</name>
    <message>
        <location line="+77"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Available</source>
        <translation>利用可能</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Granted to</source>
        <translation>許可先</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no ({reason})</source>
        <translation>いいえ（{reason}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{server} (while running)</source>
        <translation>{server}（実行中のみ）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nobody</source>
        <translation>なし</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The folder is {reason}: no server is told about it until it is back.</source>
        <translation>フォルダーの状態: {reason}。戻るまで、どのサーバーにも知らされません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Double-click or press F2 to rename</source>
        <translation>ダブルクリックまたは F2 キーで名前を変更</translation>
    </message>
</context>
<context>
    <name>RootsPanel</name>
    <message>
        <location filename="../../app/roots_manager/gui/roots/roots_view.py" line="+97"/>
        <source>Workspace roots</source>
        <translation>ワークスペースのルート</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Add folder…</source>
        <translation>フォルダーを追加(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+102"/>
        <source>Add a folder as a root</source>
        <translation>フォルダーをルートとして追加</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>&amp;Detect projects…</source>
        <translation>プロジェクトを検出(&amp;D)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Detect projects in a folder</source>
        <translation>フォルダー内のプロジェクトを検出</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+1"/>
        <source>Recent folders</source>
        <translation>最近使ったフォルダー</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+72"/>
        <source>Re&amp;name</source>
        <translation>名前を変更(&amp;N)</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Rename the selected root</source>
        <translation>選択したルートの名前を変更</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Rec&amp;ent</source>
        <translation>最近(&amp;E)</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>No roots yet. Add the folders you work in with Add folder… or Detect projects…, or drop them here from your file manager.</source>
        <translation>まだルートがありません。作業するフォルダーを「フォルダーを追加…」や「プロジェクトを検出…」で追加するか、ファイルマネージャーからここにドロップしてください。</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Rename the selected root (F2)</source>
        <translation>選択したルートの名前を変更 (F2)</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+71"/>
        <source>Re&amp;move…</source>
        <translation>削除(&amp;M)…</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Remove the selected roots (Delete)</source>
        <translation>選択したルートを削除 (Delete)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the selected roots</source>
        <translation>選択したルートを削除</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+190"/>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="-184"/>
        <source>Rename</source>
        <translation>名前を変更</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Roots are the folders you work in. Drop folders here from your file manager, then choose in the Servers and consent tab which server may see which.</source>
        <translation>ルートとは、あなたが作業するフォルダーです。ファイルマネージャーからここにフォルダーをドロップし、どのサーバーにどれを見せるかを「サーバーと同意」タブで選びます。</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>It is your home folder. Every server you grant it to could be pointed at all your files: documents, keys, browser profiles and the rest.</source>
        <translation>これはホームフォルダーです。許可したサーバーはすべて、あなたのあらゆるファイル（書類、鍵、ブラウザーのプロファイルなど）に向けられる可能性があります。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It holds your home folder ({home}). Every server you grant it to could be pointed at all your files: documents, keys, browser profiles and the rest.</source>
        <translation>これはホームフォルダー（{home}）を含むフォルダーです。許可したサーバーはすべて、あなたのあらゆるファイル（書類、鍵、ブラウザーのプロファイルなど）に向けられる可能性があります。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It is the root of the file system. Every server you grant it to could be pointed at every file on this computer.</source>
        <translation>これはファイルシステムのルートです。許可したサーバーはすべて、このコンピューター上のあらゆるファイルに向けられる可能性があります。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Add a very broad folder?</source>
        <translation>非常に広い範囲のフォルダーを追加しますか?</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add {path} as a root?</source>
        <translation>{path} をルートとして追加しますか?</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A project folder is almost always the better choice.</source>
        <translation>ほとんどの場合、プロジェクトのフォルダーのほうが適切です。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add it anyway</source>
        <translation>それでも追加する</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Not added:</source>
        <translation>追加されなかったもの:</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>No recent folders</source>
        <translation>最近使ったフォルダーはありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Clear the list</source>
        <translation>一覧を消去</translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>These servers will no longer be told about %n root(s): {servers}.</source>
        <translation>
            <numerusform>次のサーバーには %n 件のルートがもう知らされなくなります: {servers}。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>The %n root(s) are granted to no server now.</source>
        <translation>
            <numerusform>現在、%n 件のルートを許可されているサーバーはありません。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Remove %n root(s)</source>
        <translation>
            <numerusform>%n 件のルートを削除</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove {names} from your roots?</source>
        <translation>{names} をルートから削除しますか?</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The folders themselves are not touched.</source>
        <translation>フォルダー自体には手を加えません。</translation>
    </message>
</context>
<context>
    <name>ServerDetail</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/server_detail.py" line="+65"/>
        <source>not granted</source>
        <translation>許可なし</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>while running, read-only</source>
        <translation>実行中のみ、読み取り専用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>while running</source>
        <translation>実行中のみ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>always, read-only</source>
        <translation>常に、読み取り専用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>always</source>
        <translation>常に</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Access</source>
        <translation>アクセス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The selected server&apos;s folders</source>
        <translation>選択したサーバーのフォルダー</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add folder…</source>
        <translation>フォルダーを追加…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a folder: it becomes a root, and this server may see it</source>
        <translation>フォルダーを選ぶと、ルートになり、このサーバーから見えるようになります</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Learn…</source>
        <translation>学習…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run this server confined for a while, then grant what it was refused, as you choose</source>
        <translation>このサーバーをしばらく閉じ込めて動かし、拒否されたものを選んで許可します</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No folder yet: Add folder… grants this server one.</source>
        <translation>まだフォルダーがありません。「フォルダーを追加…」でこのサーバーに許可できます。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Restart &amp;now</source>
        <translation>今すぐ再起動(&amp;N)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The selected server&apos;s last events</source>
        <translation>選択したサーバーの最近のイベント</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Allow…</source>
        <translation>許可…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow what the selected refusal asked</source>
        <translation>選択した拒否が求めたものを許可</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Grant the server what the refusal chosen in its recent activity asked for, in one click, as the refusal notice does (Ctrl+Shift+A, or right-click it)</source>
        <translation>最近の動きで選んだ拒否でサーバーが求めたものを、拒否の通知と同じようにワンクリックで許可します（Ctrl+Shift+A、または右クリック）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Recent activity</source>
        <translation>最近の動き</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Access to {folder}</source>
        <translation>{folder} へのアクセス</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>{folder} (still readable until restart)</source>
        <translation>{folder} (再起動まで読み取り可能)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{place}, read-only</source>
        <translation>{place}（読み取り専用）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{place}, hidden</source>
        <translation>{place}（非表示）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{folder} (except {places})</source>
        <translation>{folder}（例外: {places}）</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>Revoked, but still readable until restart: %n folder(s) ({folders}). The running server keeps the rules it started with until it starts again.</source>
        <translation>
            <numerusform>取り消しましたが、再起動までは読み取り可能です: %n 個のフォルダー ({folders})。実行中のサーバーは、次に起動するまで起動時の規則のままです。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Its bridge cannot restart it (it kept no handshake of the host&apos;s to replay): restart it from its host.</source>
        <translation>このブリッジは再起動できません (再送するホストのハンドシェイクを保持していません)。ホストから再起動してください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stop the server and start it again now, behind its host&apos;s back</source>
        <translation>ホストに気付かれずに、今すぐサーバーを停止して再び起動します</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only the server&apos;s host can restart it</source>
        <translation>このサーバーを再起動できるのはホストだけです</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Add folder</source>
        <translation>フォルダーを追加</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>The selected server&apos;s timeline</source>
        <translation>選択したサーバーのタイムライン</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Its roots traffic over time, as the Log&apos;s timeline shows it: blue, asked for roots; green, answered; a pale bar while an answer was held; orange, list_changed sent; purple, consent; red cross, refused. Ctrl+wheel: zoom; drag: move; click a mark to see its event in the Log.</source>
        <translation>ログのタイムラインと同じ、このサーバーのルートのやり取りの時間経過です。青: ルートを要求、緑: 応答、淡い帯: 応答を保留中、橙: list_changed を送信、紫: 同意、赤い×: 拒否。Ctrl+ホイール: 拡大縮小、ドラッグ: 移動、印をクリックするとログでそのイベントを表示します。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Nothing logged yet</source>
        <translation>まだ記録はありません</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Allow what this refusal asked</source>
        <translation>この拒否が求めたものを許可</translation>
    </message>
</context>
<context>
    <name>ServerList</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/server_list.py" line="+162"/>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not running</source>
        <translation>停止中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>confined</source>
        <translation>閉じ込め中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>confined from its next start</source>
        <translation>次回の起動から閉じ込め</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>advisory</source>
        <translation>助言のみ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stale</source>
        <translation>古い情報</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>waiting for consent</source>
        <translation>同意待ち</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>command changed</source>
        <translation>コマンドが変更された</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n refusals</source>
        <translation>
            <numerusform>拒否 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, </source>
        <comment>between the words of a badge</comment>
        <translation>、</translation>
    </message>
    <message>
        <location line="-123"/>
        <source>Started by this app</source>
        <translation>このアプリが起動</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started by hand</source>
        <translation>手動で起動</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Servers by what starts them</source>
        <translation>起動元ごとのサーバー</translation>
    </message>
</context>
<context>
    <name>ServersModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_model.py" line="+131"/>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bridge</source>
        <translation>ブリッジ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>開始時刻</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last roots/list</source>
        <translation>最後の roots/list</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stale</source>
        <translation>古い情報</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command line</source>
        <translation>コマンドライン</translation>
    </message>
    <message>
        <location line="+7"/>
        <location filename="../../app/roots_manager/gui/servers/servers_table.py" line="+49"/>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>running ({count})</source>
        <translation>実行中（{count}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not running</source>
        <translation>停止中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>confined</source>
        <translation>閉じ込め中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>consent pending</source>
        <translation>同意待ち</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>command changed, consent pending</source>
        <translation>コマンド変更、同意待ち</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>command changed: grants suspended</source>
        <translation>コマンド変更: 許可を停止中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, </source>
        <comment>between the parts of a server&apos;s status</comment>
        <translation>、</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>denied on {when}</source>
        <translation>{when} に拒否</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>allowed while it runs, on {when}</source>
        <translation>{when} に実行中のみ許可</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>allowed on {when}</source>
        <translation>{when} に許可</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; </source>
        <comment>between the bridges of one server</comment>
        <translation>／</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pid {pid}, {mode}, protocol {protocol}</source>
        <translation>PID {pid}、{mode}、プロトコル {protocol}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not yet known</source>
        <translation>まだ不明</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, running confined</source>
        <translation>、閉じ込めて実行中</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>, restarted %n time(s)</source>
        <translation>
            <numerusform>、%n 回再起動</numerusform>
        </translation>
    </message>
    <message>
        <location line="+19"/>
        <source>never</source>
        <translation>なし</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../app/roots_manager/gui/servers/servers_table.py" line="+7"/>
        <source>stale</source>
        <translation>古い情報</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Roots Manager told this server that its roots changed ({when}) and it has not asked for them since: it may still work with the old folders. Restarting the server makes it ask again.</source>
        <translation>Roots Manager はこのサーバーにルートの変更を知らせましたが（{when}）、その後サーバーはルートを問い合わせていません。まだ古いフォルダーで作業している可能性があります。サーバーを再起動すると、もう一度問い合わせます。</translation>
    </message>
</context>
<context>
    <name>ServersPanel</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="+491"/>
        <source>&lt;b&gt;Roots tell a server where to look; they are not an access control.&lt;/b&gt; A server can still open any file its process is allowed to. Check what it really does in the Log.</source>
        <translation>&lt;b&gt;ルートはサーバーにどこを見るべきかを伝えるもので、アクセス制御ではありません。&lt;/b&gt;サーバーは、そのプロセスに許されたファイルなら何でも開けます。実際に何をしているかは「ログ」で確認してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notice: roots are not an access control</source>
        <translation>注意: ルートはアクセス制御ではありません</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/policy_choice.py" line="+18"/>
        <source>Policy for unknown servers</source>
        <translation>未知のサーバーに対するポリシー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ask me</source>
        <translation>確認する</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show them nothing</source>
        <translation>何も見せない</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show them every root</source>
        <translation>すべてのルートを見せる</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="-393"/>
        <source>When an &amp;unknown server starts:</source>
        <translation>未知のサーバーが起動したとき(&amp;U):</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_table.py" line="-24"/>
        <source>Servers</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/consent_cells.py" line="+43"/>
        <source>Consent: which server sees which root</source>
        <translation>同意: どのサーバーにどのルートを見せるか</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="+32"/>
        <source>No server has run behind roots-bridge yet. Start one with Connect a server…, or put roots-bridge in front of a server in your host&apos;s configuration (Help, Use with your host); it appears here the first time it runs.</source>
        <translation>まだ roots-bridge 経由で動いたサーバーはありません。「サーバーに接続…」で起動するか、ホストの設定でサーバーの前に roots-bridge を置いてください（ヘルプ →「ホストで使う」）。サーバーは初めて動いたときにここに現れます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No servers yet</source>
        <translation>サーバーはまだありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;onsent</source>
        <translation>同意(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>S&amp;ervers</source>
        <translation>サーバー(&amp;E)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>For&amp;get server…</source>
        <translation>サーバーを削除(&amp;G)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Co&amp;nnect a server…</source>
        <translation>サーバーに接続(&amp;N)…</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>A&amp;pprove command</source>
        <translation>コマンドを承認(&amp;P)</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>Start new servers conf&amp;ined</source>
        <translation>新しいサーバーを閉じ込めて起動(&amp;I)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A server first seen from now on runs confined to its grants: the kernel refuses it every other file of yours, and each refusal shows here with Allow folder. Servers already known keep their own setting.</source>
        <translation>これから初めて見つかるサーバーは許可したフォルダーに閉じ込めて実行されます。カーネルはそれ以外のあなたのファイルをすべて拒否し、拒否はそれぞれ「フォルダーを許可」とともにここに表示されます。既知のサーバーはそれぞれの設定のままです。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This machine cannot confine a server: new servers start unconfined.</source>
        <translation>このコンピューターではサーバーを閉じ込められません。新しいサーバーは閉じ込めなしで起動します。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A click on a cell, or Space, changes what a server sees: not granted, then while running (until the server stops), then always. Right-click for a menu, which can also make a grant read-only. A lock marks a confined server.</source>
        <translation>セルをクリックするか Space を押すと、サーバーに見せる範囲が 許可なし → 実行中のみ（サーバーが止まるまで）→ 常に と切り替わります。右クリックのメニューでは許可を読み取り専用にもできます。鍵は閉じ込められたサーバーの印です。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Accept the server&apos;s changed command line and lift the suspension</source>
        <translation>サーバーの変更後のコマンドラインを受け入れ、停止を解除します</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+1"/>
        <source>&amp;Disconnect…</source>
        <translation>切断(&amp;D)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>End the selected server, which this app connected as its host</source>
        <translation>このアプリがホストとして接続した、選択中のサーバーを終了します</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Send l&amp;ist_changed</source>
        <translation>list_changed を送信(&amp;I)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Have the running bridge tell the server its roots changed, though they did not: the Log shows whether the server asks for them again</source>
        <translation>実行中のブリッジから、ルートが変わったとサーバーに伝えます（実際には変わっていません）。サーバーがもう一度尋ねるかは「ログ」で確認できます</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Send &amp;list_changed</source>
        <translation>list_changed を送信(&amp;L)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Restart</source>
        <translation>再起動</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop the server and start it again behind its host&apos;s back, whatever host started it: the host stays connected (its handshake is replayed to the new server), and the server starts afresh with what it is granted now</source>
        <translation>どのホストが起動したサーバーでも、ホストに気付かれずに停止して再び起動します。ホストは接続したままで（ハンドシェイクは新しいサーバーに再送されます）、サーバーは現在許可されている内容で新しく起動します</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Re&amp;start</source>
        <translation>再起動(&amp;S)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Pro&amp;be…</source>
        <translation>プローブ(&amp;B)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run the server over a scratch tree and find out what it really does with its roots: every path tool tried inside and outside its root</source>
        <translation>作業用ツリーでサーバーを実行し、ルートを実際にどう扱うかを調べます。パスを扱うすべてのツールをルートの内と外で試します</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Probe…</source>
        <translation>プローブ(&amp;P)…</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Protection</source>
        <translation>保護</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>By server</source>
        <translation>サーバー別</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All grants</source>
        <translation>すべての許可</translation>
    </message>
    <message>
        <location line="+157"/>
        <source>&lt;b&gt;{server} runs confined: the kernel holds it to the folders you grant.&lt;/b&gt; Roots tell it where to look, and every other file of yours is refused; each refusal shows in the Log, where it can be allowed. Its network is not restricted unless you block it.</source>
        <translation>&lt;b&gt;{server} は閉じ込められて動作します: カーネルが、許可したフォルダーの範囲にこのサーバーを制限します。&lt;/b&gt;ルートはどこを見るべきかを伝え、それ以外のあなたのファイルはすべて拒否されます。拒否はそれぞれ「ログ」に表示され、そこで許可できます。ネットワークは、ブロックしない限り制限されません。</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+8"/>
        <location line="+9"/>
        <source>Notice: the kernel holds this server to its grants</source>
        <translation>注意: カーネルがこのサーバーを許可の範囲に制限しています</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>&lt;b&gt;{server} runs confined: the kernel holds it to the folders you grant.&lt;/b&gt; Roots tell it where to look, and every other file of yours is refused; each refusal shows in the Log, where it can be allowed. Its network reaches only its domains, through Roots Manager&apos;s proxy.</source>
        <translation>&lt;b&gt;{server} は閉じ込められて動作します: カーネルが、許可したフォルダーの範囲にこのサーバーを制限します。&lt;/b&gt;ルートはどこを見るべきかを伝え、それ以外のあなたのファイルはすべて拒否されます。拒否はそれぞれ「ログ」に表示され、そこで許可できます。ネットワークは Roots Manager のプロキシを通して、そのドメインにだけ届きます。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&lt;b&gt;{server} runs confined: the kernel holds it to the folders you grant.&lt;/b&gt; Roots tell it where to look, and every other file of yours is refused; each refusal shows in the Log, where it can be allowed. Its network is blocked.</source>
        <translation>&lt;b&gt;{server} は閉じ込められて動作します: カーネルが、許可したフォルダーの範囲にこのサーバーを制限します。&lt;/b&gt;ルートはどこを見るべきかを伝え、それ以外のあなたのファイルはすべて拒否されます。拒否はそれぞれ「ログ」に表示され、そこで許可できます。ネットワークはブロックされています。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&lt;b&gt;These servers run confined: the kernel holds each to the folders you grant.&lt;/b&gt; Roots tell a server where to look, and every other file of yours is refused; each refusal shows in the Log, where it can be allowed.</source>
        <translation>&lt;b&gt;これらのサーバーは閉じ込められて動作します: カーネルが、それぞれを許可したフォルダーの範囲に制限します。&lt;/b&gt;ルートはサーバーにどこを見るべきかを伝え、それ以外のあなたのファイルはすべて拒否されます。拒否はそれぞれ「ログ」に表示され、そこで許可できます。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notice: the kernel holds these servers to their grants</source>
        <translation>注意: カーネルがこれらのサーバーを許可の範囲に制限しています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;{server} runs unconfined until it restarts: until then roots are not an access control for it.&lt;/b&gt; It can still open any file its process is allowed to; from its next start the kernel holds it to the folders you grant.</source>
        <translation>&lt;b&gt;{server} は再起動するまで閉じ込められずに動作します: それまでは、ルートはこのサーバーのアクセス制御ではありません。&lt;/b&gt;そのプロセスに許されたファイルなら何でも開けます。次の起動からは、カーネルが許可したフォルダーの範囲に制限します。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Notice: this server is held to its grants only from its next start</source>
        <translation>注意: このサーバーが許可の範囲に制限されるのは次の起動からです</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;Roots tell a server where to look; only a confined server (marked with a lock) is held to them by the kernel.&lt;/b&gt; A server that is not confined can still open any file its process is allowed to. Check what it really does in the Log.</source>
        <translation>&lt;b&gt;ルートはサーバーにどこを見るべきかを伝えます。カーネルがルートに従わせるのは、閉じ込められたサーバー（鍵の印）だけです。&lt;/b&gt;閉じ込められていないサーバーは、そのプロセスに許されたファイルなら何でも開けます。実際に何をしているかは「ログ」で確認してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Notice: only confined servers are held to their grants</source>
        <translation>注意: 許可の範囲に制限されるのは閉じ込められたサーバーだけです</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;{server} does not run confined: roots tell it where to look; they are not an access control.&lt;/b&gt; It can still open any file its process is allowed to. Check what it really does in the Log.</source>
        <translation>&lt;b&gt;{server} は閉じ込められずに動作します: ルートはどこを見るべきかを伝えるもので、アクセス制御ではありません。&lt;/b&gt;そのプロセスに許されたファイルなら何でも開けます。実際に何をしているかは「ログ」で確認してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Notice: roots are not an access control for this server</source>
        <translation>注意: このサーバーにとってルートはアクセス制御ではありません</translation>
    </message>
    <message>
        <location line="+158"/>
        <source>No server selected</source>
        <translation>サーバーが選択されていません</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/consent_cells.py" line="+42"/>
        <source>Legend of the consent cells</source>
        <translation>同意セルの凡例</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Always: from now on</source>
        <translation>常に: これから先ずっと</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>While running: until the server stops</source>
        <translation>実行中のみ: サーバーが止まるまで</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>&amp;While running</source>
        <translation>実行中のみ(&amp;W)</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Not granted</source>
        <translation>許可なし</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Read-only: said in the cell</source>
        <translation>読み取り専用: セルに表示</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Each server appears here as a row once it has run behind roots-bridge.</source>
        <translation>各サーバーは、roots-bridge の背後で一度動くとここに行として表示されます。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>You have no roots yet: add folders in the Roots tab, and each becomes a column here.</source>
        <translation>まだルートがありません。「ルート」タブでフォルダーを追加すると、それぞれがここで列になります。</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="+58"/>
        <source>Could not ask the bridge of {server}: {reason}</source>
        <translation>{server} のブリッジに依頼できませんでした: {reason}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/policy_choice.py" line="+11"/>
        <source>Show every root to unknown servers?</source>
        <translation>未知のサーバーにすべてのルートを見せますか?</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Any server that starts behind the bridge will be told about every root, without asking you. Continue?</source>
        <translation>ブリッジ経由で起動するサーバーはすべて、確認なしにすべてのルートを知らされます。続けますか?</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="+34"/>
        <source>Forget server</source>
        <translation>サーバーを削除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forget {server} and its grants? The next time it starts it counts as a new server.</source>
        <translation>{server} とその許可を削除しますか? 次に起動したときは新しいサーバーとして扱われます。</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/consent_cells.py" line="+51"/>
        <source>&amp;Always</source>
        <translation>常に(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Not granted</source>
        <translation>許可なし(&amp;N)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Read-only (holds only while the server runs confined)</source>
        <translation>読み取り専用(&amp;R)（サーバーが閉じ込められて動いている間だけ有効）</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/settings_dialog.py" line="+48"/>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System default</source>
        <translation>システムの既定</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Keep running in the tray when the window is closed</source>
        <translation>ウィンドウを閉じてもトレイで実行し続ける(&amp;K)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A new language applies after a restart, which you are offered when you save.</source>
        <translation>新しい言語は再起動後に適用されます。保存すると、再起動するかどうかを尋ねます。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Most space all traffic logs may take</source>
        <translation>すべての通信ログが使える最大の容量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> days</source>
        <translation> 日</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How long traffic logs are kept</source>
        <translation>通信ログを保存する期間</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>When the bridges&apos; traffic logs pass either limit, the oldest files are removed first. The log of a server running now is never removed.</source>
        <translation>ブリッジの通信ログがどちらかの上限を超えると、古いファイルから削除されます。いま動いているサーバーのログは削除されません。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Language:</source>
        <translation>言語(&amp;L):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keep traffic logs &amp;up to:</source>
        <translation>通信ログの容量上限(&amp;U):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep traffic logs &amp;for:</source>
        <translation>通信ログの保存期間(&amp;F):</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>no limit</source>
        <translation>上限なし</translation>
    </message>
</context>
<context>
    <name>StoreWatcher</name>
    <message>
        <location filename="../../app/roots_manager/gui/common/watcher.py" line="+246"/>
        <source>Your change was not saved: the store cannot be read. Choose Recover… above the tabs to repair it.</source>
        <translation>変更は保存されませんでした。ストアを読み込めません。タブの上の「復旧…」で修復してください。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Your change was not saved: {reason}</source>
        <translation>変更は保存されませんでした: {reason}</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <location filename="../../app/roots_manager/gui/log/timeline_view.py" line="+275"/>
        <source>Timeline of the roots traffic</source>
        <translation>ルートのやりとりのタイムライン</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Blue: asked for roots; green: answered; orange: list_changed sent; purple: consent. Wheel: zoom; Shift+wheel or drag: move; click a mark to select it. Keys: arrows move between marks, Enter selects, +/- zoom.</source>
        <translation>青: ルートの要求、緑: 応答、橙: list_changed の送信、紫: 同意。ホイール: 拡大縮小、Shift+ホイールまたはドラッグ: 移動、印をクリックで選択。キー: 矢印で印の間を移動、Enter で選択、+/- で拡大縮小。</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>asked for roots</source>
        <translation>ルートを要求</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>refused</source>
        <translation>拒否</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>answer held</source>
        <translation>応答を保留中</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Probe runs</source>
        <translation>プローブの実行</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>{server}: {mark}</source>
        <translation>{server}: {mark}</translation>
    </message>
    <message>
        <location line="+148"/>
        <source>asked for its roots</source>
        <translation>ルートを問い合わせ</translation>
    </message>
    <message>
        <location line="-211"/>
        <location line="+212"/>
        <source>answered</source>
        <translation>応答</translation>
    </message>
    <message>
        <location line="-211"/>
        <location line="+212"/>
        <source>list_changed sent</source>
        <translation>list_changed を送信</translation>
    </message>
    <message>
        <location line="-211"/>
        <location line="+212"/>
        <source>consent</source>
        <translation>同意</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refused (confined)</source>
        <translation>拒否（閉じ込め中）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>No roots request of this server logged yet.</source>
        <translation>このサーバーのルート要求はまだ記録されていません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The timeline shows each server&apos;s roots requests once there are some.</source>
        <translation>ルートのリクエストがあると、サーバーごとにここのタイムラインに表示されます。</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/tray.py" line="+54"/>
        <source>&amp;Show Roots Manager</source>
        <translation>Roots Manager を表示(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Review pending requests</source>
        <translation>保留中のリクエストを確認(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message numerus="yes">
        <location line="+28"/>
        <source>Roots Manager: %n consent request(s) waiting</source>
        <translation>
            <numerusform>Roots Manager: %n 件の同意リクエストが待っています</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Roots Manager</source>
        <translation>Roots Manager</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Review pending requests ({count})</source>
        <translation>保留中のリクエストを確認（{count}）(&amp;R)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A server asks for your folders</source>
        <translation>サーバーがフォルダーを求めています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{server} waits for your decision. Click to review.</source>
        <translation>{server} が決定を待っています。クリックして確認してください。</translation>
    </message>
</context>
<context>
    <name>Watch</name>
    <message>
        <location filename="../../app/roots_manager/gui/common/errors.py" line="+34"/>
        <source>no inotify instance or file descriptor is left (fs.inotify.max_user_instances, ulimit -n): {error}</source>
        <translation>inotify インスタンスまたはファイル記述子が残っていません (fs.inotify.max_user_instances、ulimit -n): {error}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no inotify watch is left (fs.inotify.max_user_watches): {error}</source>
        <translation>inotify の監視が残っていません (fs.inotify.max_user_watches): {error}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not following live: {reason}; retrying</source>
        <translation>ライブで追跡していません: {reason}。再試行中</translation>
    </message>
</context>
<context>
    <name>WelcomeBanner</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/welcome.py" line="+25"/>
        <source>Welcome</source>
        <translation>ようこそ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Welcome.&lt;/b&gt; Roots Manager keeps one list of the folders you work in (your roots) and decides, for each MCP server, which of them it may see.&lt;br&gt;A host reaches it through roots-bridge, put in front of a server in the host&apos;s configuration (Help ▸ Use with your host), or try Servers ▸ Connect a server… with the demo server.&lt;br&gt;Every roots request and change notice then shows live in the Log.</source>
        <translation>&lt;b&gt;ようこそ。&lt;/b&gt;Roots Manager は作業するフォルダー（ルート）の一覧を一つ持ち、MCP サーバーごとにどれを見せるかを決めます。&lt;br&gt;ホストからは roots-bridge を通して使います。ホストの設定でサーバーの前に roots-bridge を置くか（ヘルプ ▸ ホストで使う）、サーバー ▸ サーバーに接続… でデモサーバーを試してください。&lt;br&gt;ルートのリクエストと変更通知は、すべてログにリアルタイムで表示されます。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Got it</source>
        <translation>わかりました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide this welcome for good</source>
        <translation>この案内を今後表示しない</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Protect them…</source>
        <translation>保護する(&amp;P)…</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>{host} (%n server(s))</source>
        <translation>
            <numerusform>{host}(サーバー %n 個)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;b&gt;Found {hosts}.&lt;/b&gt; Protect their servers, so each sees only the folders you grant it?</source>
        <translation>&lt;b&gt;{hosts} が見つかりました。&lt;/b&gt;各サーバーが許可したフォルダーだけを見るように保護しますか？</translation>
    </message>
</context>
<context>
    <name>_ChangePage</name>
    <message>
        <location filename="../../app/roots_manager/gui/hosts/first_run.py" line="+68"/>
        <source>The change to your hosts&apos; files</source>
        <translation>ホストのファイルへの変更</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Protect</source>
        <translation>保護する(&amp;P)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The change to the hosts&apos; files</source>
        <translation>ホストのファイルへの変更</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The folders named in their arguments are replaced by {roots}, and become roots granted to them: they see what you grant, and a change of it restarts them.</source>
        <translation>引数で指定されたフォルダーは {roots} に置き換えられ、それらに許可されたルートになります。サーバーはあなたが許可したものを見て、それが変わると再起動されます。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Give {servers} the folders you grant through {{roots}}</source>
        <translation>{servers} には、許可するフォルダーを {{roots}} で渡す</translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>These lines of %n file(s) change; nothing else in them does. Protect makes the change.</source>
        <translation>
            <numerusform>%n 個のファイルのこれらの行が変わります。ほかの部分は変わりません。「保護する」で変更します。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Nothing can be changed: {why}</source>
        <translation>変更できません: {why}</translation>
    </message>
</context>
<context>
    <name>_DonePage</name>
    <message>
        <location line="+147"/>
        <source>Done</source>
        <translation>完了</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%n server(s) protected.</source>
        <translation>
            <numerusform>%n 個のサーバーを保護しました。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restart {host} to apply the change.</source>
        <translation>変更を反映するには {host} を再起動してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Each server now asks you before it sees a folder you did not grant; the Log shows what it asks. Undo last change on the Hosts tab gives the files back as they were.</source>
        <translation>各サーバーは、許可していないフォルダーを見る前に確認を求めます。何を求めたかはログに表示されます。「ホスト」タブの「最後の変更を元に戻す」で、ファイルを元の状態に戻せます。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>They run confined: the kernel refuses them every file of yours outside the folders you grant. A refusal shows in the app, with the request that caused it and Allow folder; a server&apos;s Protection turns this off for it.</source>
        <translation>これらは閉じ込めて実行されます。許可したフォルダー以外のあなたのファイルはすべてカーネルが拒否します。拒否は、それを起こしたリクエストと「フォルダーを許可」とともにアプリに表示されます。サーバーの「保護」でそのサーバーだけ無効にできます。</translation>
    </message>
</context>
<context>
    <name>_FoldersPage</name>
    <message>
        <location line="-141"/>
        <source>The folders they may see</source>
        <translation>見てよいフォルダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Grant</source>
        <translation>許可する(&amp;G)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tick the folders the servers you protected may see. Nothing is granted until you tick it; a server asks for the others when it needs them.</source>
        <translation>保護したサーバーが見てよいフォルダーにチェックを付けてください。チェックを付けるまで何も許可されません。ほかのフォルダーは、必要になったときにサーバーが確認を求めます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Folders</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add folder…</source>
        <translation>フォルダーを追加(&amp;A)…</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>{path} (named in the arguments of {servers})</source>
        <translation>{path}（{servers} の引数で指定）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Add folder</source>
        <translation>フォルダーを追加</translation>
    </message>
</context>
<context>
    <name>_ServersPage</name>
    <message>
        <location line="-202"/>
        <source>Found on this computer</source>
        <translation>このコンピューターで見つかったもの</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>{host} (%n server(s))</source>
        <translation>
            <numerusform>{host}(サーバー %n 個)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Found {hosts}. Protect them?</source>
        <translation>{hosts} が見つかりました。保護しますか？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A protected server starts behind the bridge: it sees only the folders you grant it, and asks you before it sees any other. Its host&apos;s file keeps everything else; a backup is kept, and Undo last change on the Hosts tab takes the change back.</source>
        <translation>保護されたサーバーはブリッジ経由で起動し、許可したフォルダーだけを見て、ほかのフォルダーを見る前には確認を求めます。ホストのファイルのほかの部分はそのままです。バックアップが保存され、「ホスト」タブの「最後の変更を元に戻す」で変更を取り消せます。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Servers to protect</source>
        <translation>保護するサーバー</translation>
    </message>
</context>
</TS>
