<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AllowMenu</name>
    <message>
        <location filename="../../app/roots_manager/gui/common/allow_menu.py" line="+64"/>
        <source>Allow domain {domain}</source>
        <translation>允许域名：{domain}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow and create: {folder}</source>
        <translation>允许并创建：{folder}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow this file: {file}</source>
        <translation>允许此文件：{file}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Allow folder: {folder}</source>
        <translation>允许文件夹：{folder}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allow read-only: {folder}</source>
        <translation>以只读方式允许：{folder}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not a path</source>
        <translation>不是路径</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not offered in one click: {why}</source>
        <translation>不提供一键允许：{why}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No folder offered: {why}</source>
        <translation>不提供文件夹：{why}</translation>
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
        <translation>Roots Manager 无法再次启动：{reason}</translation>
    </message>
</context>
<context>
    <name>ChangePreview</name>
    <message>
        <location filename="../../app/roots_manager/gui/hosts/host_change_dialog.py" line="+37"/>
        <source>Protect {server}?</source>
        <translation>保护 {server}？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop protecting {server}?</source>
        <translation>停止保护 {server}？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{server} will start behind the bridge: it sees only the folders you grant it. {host}&apos;s file changes as shown below; a backup is kept, and Undo last change takes it back.</source>
        <translation>{server} 将经由桥接启动：它只能看到你授予它的文件夹。{host} 的文件将如下所示更改；会保留备份，“撤销上一次更改”可以将其撤回。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{server} will start without the bridge again, and see what its command line gives it. {host}&apos;s file changes as shown below; a backup is kept.</source>
        <translation>{server} 将再次不经桥接启动，并看到其命令行给它的内容。{host} 的文件将如下所示更改；会保留备份。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The change to {file}</source>
        <translation>对 {file} 的更改</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Protect</source>
        <translation>保护(&amp;P)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Stop protecting</source>
        <translation>停止保护(&amp;S)</translation>
    </message>
</context>
<context>
    <name>ConfineBox</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/confine_box.py" line="+49"/>
        <source>Confine this server to its gr&amp;ants</source>
        <translation>将此服务器限制在其授权范围内(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Confine the selected server to its grants</source>
        <translation>将所选服务器限制在其授权范围内</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Ask me before refusing a read or a connection: the call waits up to {seconds} s</source>
        <translation>拒绝读取或连接前先询问我：调用最多等待 {seconds} 秒</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>While the host waits for a request, a read outside the server&apos;s grants waits for you instead of failing: allow a folder holding it (here, in the Log, or roots-manager grant) and that very call reads it, with no restart; so does a connection to a domain not among those it is limited to (Allow domain). From the server&apos;s next start.</source>
        <translation>当宿主在等待某个请求时，服务器授权范围之外的读取不会立即失败，而是等待你的决定：允许包含它的文件夹（在这里、在日志中，或用 roots-manager grant），该调用即可直接读取，无需重启；连接到其限定域名之外的域名也是如此（允许域名）。从服务器下次启动起生效。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Extra paths the confined server may use</source>
        <translation>已限制的服务器可额外使用的路径</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Restart it when a folder is revo&amp;ked</source>
        <translation>文件夹被撤销时重启(&amp;K)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop and start the server again behind the host&apos;s back when a folder it was told is revoked (and, confined, when its grants change): the host stays connected, and the server forgets the folder. On by default for confined servers; from the server&apos;s next start.</source>
        <translation>当已告知服务器的文件夹被撤销时（已限制时，授权变化时也一样），在主机不知情的情况下停止并重新启动服务器：主机保持连接，服务器忘记该文件夹。已限制的服务器默认开启；从服务器下次启动起生效。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Turn on restart on rev&amp;oke</source>
        <translation>开启撤销时重启(&amp;O)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Un&amp;do learning</source>
        <translation>撤销学习(&amp;D)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put back the confinement setting it had before learning started</source>
        <translation>恢复到开始学习之前的限制设置</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Extra read-onl&amp;y path…</source>
        <translation>额外只读路径…(&amp;Y)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>E&amp;xtra writable path…</source>
        <translation>额外可写路径…(&amp;X)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Re&amp;move path</source>
        <translation>移除路径(&amp;M)</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>{server} was told its folders changed and has not asked for them since: it may still use a folder you revoked. Restart on revoke makes a revocation restart it, from its next start.</source>
        <translation>已通知 {server} 其文件夹已更改，但它此后未再询问：它可能仍在使用您撤销的文件夹。开启“撤销时重启”后，从下次启动起，每次撤销都会重启它。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Select a server to confine it or not.</source>
        <translation>选择一个服务器，决定是否限制它。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>turning it on takes effect when the server next starts</source>
        <translation>开启后将在服务器下次启动时生效</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>as it asks, a folder granted read-only while it runs is read at once, with no restart; one granted to write, or a revocation, restarts it</source>
        <translation>由于它会询问，运行期间以只读方式授予的文件夹会立即被读取，无需重启；授予写入权限或撤销授权则会重启它</translation>
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
        <translation>启动 {server} 时将其限制在已授权的文件夹内；更改在其下次启动时生效</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Learning {server} ended without finishing and left it confined; it was not confined before.</source>
        <translation>{server} 的学习未完成就结束了，并让它保持限制状态；之前它未受限制。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Learning {server} ended without finishing and left it confined; before, the default for new servers decided whether it was.</source>
        <translation>{server} 的学习未完成就结束了，并让它保持限制状态；之前是否限制由新服务器的默认设置决定。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>read: {path}</source>
        <translation>读取：{path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>read and write: {path}</source>
        <translation>读写：{path}</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>A folder {server} may also write</source>
        <translation>{server} 还可写入的文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A folder {server} may also read</source>
        <translation>{server} 还可读取的文件夹</translation>
    </message>
</context>
<context>
    <name>Confinement</name>
    <message>
        <location filename="../../app/roots_manager/gui/common/confinement_text.py" line="+18"/>
        <source>read</source>
        <translation>读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>write</source>
        <translation>写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>list</source>
        <translation>列出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>execute</source>
        <translation>执行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>create</source>
        <translation>创建</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Confinement works on Linux (Landlock); on macOS it is untested; on Windows it is unavailable.</source>
        <translation>限制功能适用于 Linux（Landlock）；在 macOS 上未经测试；在 Windows 上不可用。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>This machine can confine servers (Landlock ABI {abi}).</source>
        <translation>本机可以限制服务器（Landlock ABI {abi}）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This machine can confine servers with sandbox-exec (untested on a real Mac).</source>
        <translation>本机可以用 sandbox-exec 限制服务器（未在真实的 Mac 上测试）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>this Linux kernel has no Landlock (it needs Linux 5.13 or newer with Landlock enabled)</source>
        <translation>此 Linux 内核没有 Landlock（需要启用了 Landlock 的 Linux 5.13 或更新版本）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>this Linux kernel&apos;s Landlock is ABI {abi}; confinement needs ABI {need} (Linux 6.2 or newer)</source>
        <translation>此 Linux 内核的 Landlock 为 ABI {abi}；限制功能需要 ABI {need}（Linux 6.2 或更新版本）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>confinement is not available on this system (Linux and macOS only)</source>
        <translation>此系统不支持限制功能（仅限 Linux 和 macOS）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This machine cannot confine servers: {reason}.</source>
        <translation>本机无法限制服务器：{reason}。</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/connect/connect_dialog.py" line="+41"/>
        <source>Connect a server</source>
        <translation>连接服务器</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Start a server through the bridge, with Roots Manager as its host, to watch how it uses roots. The server sees the folders you grant it.</source>
        <translation>以 Roots Manager 作为主机，通过桥接器启动服务器，观察它如何使用根目录。服务器只能看到你授权给它的文件夹。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Known servers</source>
        <translation>已知服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(type a command line below)</source>
        <translation>（在下方输入命令行）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>for example: npx -y @modelcontextprotocol/server-filesystem</source>
        <translation>例如：npx -y @modelcontextprotocol/server-filesystem</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Use the &amp;demo server</source>
        <translation>使用演示服务器(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the demo server</source>
        <translation>使用演示服务器</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server name</source>
        <translation>服务器名称</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Problem with the input</source>
        <translation>输入有误</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Known server:</source>
        <translation>已知服务器(&amp;K)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Command &amp;line:</source>
        <translation>命令行(&amp;L)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server &amp;name:</source>
        <translation>服务器名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>C&amp;onnect</source>
        <translation>连接(&amp;O)</translation>
    </message>
    <message>
        <location line="+69"/>
        <location line="+12"/>
        <source>Enter the command line that starts the server.</source>
        <translation>请输入启动服务器的命令行。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>a quotation mark is not closed</source>
        <translation>引号未闭合</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it ends with a lone backslash</source>
        <translation>末尾是单独的反斜杠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The command line cannot be read: {0}.</source>
        <translation>无法解析命令行：{0}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The program {0} does not exist.</source>
        <translation>程序 {0} 不存在。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} is not a program that can be run.</source>
        <translation>{0} 不是可运行的程序。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The program {0} is not found on the search path (PATH).</source>
        <translation>在搜索路径（PATH）中找不到程序 {0}。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Enter a name for the server: grants are made to this name.</source>
        <translation>请输入服务器名称：授权是按此名称授予的。</translation>
    </message>
</context>
<context>
    <name>ConnectionManager</name>
    <message>
        <location filename="../../app/roots_manager/gui/connect/connect.py" line="+110"/>
        <source>the command line is empty</source>
        <translation>命令行为空</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the server {0} is still disconnecting; try again in a moment</source>
        <translation>服务器 {0} 仍在断开连接；请稍后再试</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a server named {0} is already connected</source>
        <translation>名为 {0} 的服务器已连接</translation>
    </message>
</context>
<context>
    <name>ConsentDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/consent/consent_dialog.py" line="+69"/>
        <source>A server asks for your folders</source>
        <translation>有服务器请求访问你的文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Consent request from {server}</source>
        <translation>来自 {server} 的授权请求</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;h3&gt;May &lt;i&gt;{server}&lt;/i&gt; see your folders?&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;允许 &lt;i&gt;{server}&lt;/i&gt; 看到你的文件夹吗？&lt;/h3&gt;</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>This server&apos;s command line changed since you approved it. Its grants are suspended until you decide; a changed command may be a different program.</source>
        <translation>此服务器的命令行在你批准后发生了变化。在你做出决定之前，其授权已暂停；命令变化可能意味着这是另一个程序。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Asked at {when}.</source>
        <translation>请求时间：{when}。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Full command line</source>
        <translation>完整命令行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full co&amp;mmand line:</source>
        <translation>完整命令行(&amp;M)：</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Previously approved command line</source>
        <translation>之前批准的命令行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previously &amp;approved command line:</source>
        <translation>之前批准的命令行(&amp;A)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Drop folders here, or use Add folder…</source>
        <translation>把文件夹拖放到这里，或使用“添加文件夹…”</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Add &amp;folder…</source>
        <translation>添加文件夹(&amp;F)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add a folder to your roots and tick it here (or drop folders on the list)</source>
        <translation>将文件夹添加为根目录并在此勾选（也可以把文件夹拖放到列表上）</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>%n more request(s) wait after this one.</source>
        <translation>
            <numerusform>此请求之后还有 %n 个请求在等待。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow w&amp;hile it runs</source>
        <translation>仅运行期间允许(&amp;H)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Tick the folders it may see to allow it, or Deny.</source>
        <translation>要允许，请勾选它可以看到的文件夹；或者选择“拒绝”。</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>{server} is not waiting now: your decision applies when it next asks.</source>
        <translation>{server} 目前没有在等待：你的决定将在它下次请求时生效。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{server} has not asked for its folders yet; once it asks, it waits up to {seconds} s for your decision.</source>
        <translation>{server} 还没有请求文件夹；请求后，它最多等待 {seconds} 秒等你决定。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{server} is waiting: {seconds} s</source>
        <translation>{server} 正在等待：还剩 {seconds} 秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The time ran out: {server} was answered with no folder. A decision now still reaches it.</source>
        <translation>时间已到：已回复 {server} 没有文件夹。现在做出的决定仍会送达该服务器。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{name} — {path} ({reason})</source>
        <translation>{name} — {path}（{reason}）</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Add a folder the server may see</source>
        <translation>添加服务器可以看到的文件夹</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>This server runs confined: the kernel refuses it every file outside the folders you allow (a refusal shows in Roots Manager, where it can be allowed). Its network reaches only its domains, through Roots Manager&apos;s proxy.</source>
        <translation>此服务器受限运行：内核会拒绝它访问你允许的文件夹之外的所有文件（拒绝会显示在 Roots Manager 中，可在那里允许）。它的网络只能经由 Roots Manager 的代理访问其域名。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This server runs confined: the kernel refuses it every file outside the folders you allow (a refusal shows in Roots Manager, where it can be allowed). Its network is blocked.</source>
        <translation>此服务器受限运行：内核会拒绝它访问你允许的文件夹之外的所有文件（拒绝会显示在 Roots Manager 中，可在那里允许）。它的网络已被阻止。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This server runs confined: the kernel refuses it every file outside the folders you allow (a refusal shows in Roots Manager, where it can be allowed). Its network is not restricted unless you block it.</source>
        <translation>此服务器受限运行：内核会拒绝它访问你允许的文件夹之外的所有文件（拒绝会显示在 Roots Manager 中，可在那里允许）。除非你阻止，否则它的网络不受限制。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Roots tell a server where to look. Only a confined server is held to them by the kernel; another can still open any file its process may.</source>
        <translation>根目录告诉服务器该看哪里。只有受限的服务器才会被内核约束在其中；其他服务器仍可打开其进程能打开的任何文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This server does not run confined: roots tell it where to look, but they are not an access control. It can still open any file its process may.</source>
        <translation>此服务器不受限运行：根目录告诉它该看哪里，但不是访问控制。它仍可打开其进程能打开的任何文件。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Tick at least one folder first</source>
        <translation>请先至少勾选一个文件夹</translation>
    </message>
    <message>
        <location line="-220"/>
        <source>Roots the server may see</source>
        <translation>服务器可以看到的根目录</translation>
    </message>
    <message>
        <location line="-59"/>
        <source>This server has not run behind Roots Manager before. While you decide, its request for folders is held, for a limited time; then it is answered with no folder, and your decision reaches it later.</source>
        <translation>此服务器以前没有在 Roots Manager 之后运行过。在你决定期间，它对文件夹的请求会被暂缓一段有限的时间；之后将回复它没有文件夹，你的决定稍后仍会送达。</translation>
    </message>
    <message>
        <location line="+197"/>
        <source>&amp;Roots it may see (tick the ones you allow):</source>
        <translation>可以看到的根目录(&amp;R)（勾选你允许的）：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>You have no roots yet. Add the folders this server may see with Add folder…, or allow it with none for now.</source>
        <translation>你还没有根目录。请用“添加文件夹…”添加此服务器可以看到的文件夹，或者暂时在没有文件夹的情况下允许它。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>You have no roots yet: allowing approves the server with no folder.</source>
        <translation>你还没有根目录：允许将批准此服务器，但不授予任何文件夹。</translation>
    </message>
    <message>
        <location line="-113"/>
        <source>Al&amp;ways allow</source>
        <translation>始终允许(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Deny</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Later</source>
        <translation>稍后(&amp;L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Decide later: the request stays pending and the server waits or sees nothing</source>
        <translation>稍后决定：请求保持待处理，服务器会等待或看不到任何内容</translation>
    </message>
</context>
<context>
    <name>ConsentMatrixModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/consent_matrix.py" line="+159"/>
        <source>Its command line changed: its grants are suspended until approved</source>
        <translation>其命令行已变化：在批准之前其授权已暂停</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>always, read-only</source>
        <translation>始终，只读</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Always</source>
        <translation>始终</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Always, read-only</source>
        <translation>始终·只读</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Allowed by policy</source>
        <translation>按策略允许</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not granted</source>
        <translation>未授权</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>{server} always sees {root}</source>
        <translation>{server} 始终可以看到 {root}</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>while running</source>
        <translation>仅运行期间</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>While running, read-only</source>
        <translation>仅运行期间·只读</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>While running</source>
        <translation>仅运行期间</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>{server} sees {root} until it stops running</source>
        <translation>{server} 在停止运行前可以看到 {root}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{server} does not see {root}</source>
        <translation>{server} 看不到 {root}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read-only: the kernel lets it read the folder, not write in it</source>
        <translation>只读：内核允许它读取该文件夹，但不允许写入</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read-only, but not enforced: read-only holds only while the server runs confined</source>
        <translation>只读，但未强制执行：只读仅在服务器受限运行时有效</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Suspended: its command line changed since it was approved</source>
        <translation>已暂停：其命令行在批准后发生了变化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Click or Space: not granted, while running, always</source>
        <translation>单击或按空格：未授权 → 仅运行期间 → 始终</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>{server}, {root}: {scope}</source>
        <translation>{server}，{root}：{scope}</translation>
    </message>
    <message>
        <location line="-55"/>
        <source>{server}: confined</source>
        <translation>{server}：已限制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{server}: not confined</source>
        <translation>{server}：未限制</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>while running, read-only</source>
        <translation>仅运行期间，只读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>always</source>
        <translation>始终</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>not granted</source>
        <translation>未授权</translation>
    </message>
</context>
<context>
    <name>CoreError</name>
    <message>
        <location filename="../../app/roots_manager/core/store/state.py" line="+95"/>
        <source>several roots are named {ref!r} ({paths}); name one by its path</source>
        <translation>有多个根目录名为 {ref!r}（{paths}）；请用路径指定其中一个</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no root matches {ref!r} (roots-manager roots list shows them)</source>
        <translation>没有与 {ref!r} 匹配的根目录（roots-manager roots list 可列出它们）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot add {path}: it does not exist</source>
        <translation>无法添加 {path}：它不存在</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot add {path}: it is not a folder</source>
        <translation>无法添加 {path}：它不是文件夹</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/roots/root.py" line="+26"/>
        <source>refusing to add {path}: it is the root of the file system: every server granted it could be pointed at every file. Add a project folder instead, or pass --allow-broad if you really mean it</source>
        <translation>拒绝添加 {path}：它是文件系统的根目录，获得授权的每个服务器都可能被指向任何文件。请改为添加项目文件夹；如果确实需要，请加上 --allow-broad</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>refusing to add {path}: it is your home folder: every server granted it could be pointed at all your files. Add a project folder instead, or pass --allow-broad if you really mean it</source>
        <translation>拒绝添加 {path}：它是你的主文件夹，获得授权的每个服务器都可能被指向你的所有文件。请改为添加项目文件夹；如果确实需要，请加上 --allow-broad</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>refusing to add {path}: it holds your home folder ({home}): every server granted it could be pointed at all your files. Add a project folder instead, or pass --allow-broad if you really mean it</source>
        <translation>拒绝添加 {path}：它包含你的主文件夹（{home}），获得授权的每个服务器都可能被指向你的所有文件。请改为添加项目文件夹；如果确实需要，请加上 --allow-broad</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>cannot add {path}: the path, or a folder name in it, is longer than the system allows (ENAMETOOLONG)</source>
        <translation>无法添加 {path}：该路径或其中的某个文件夹名超出了系统允许的长度（ENAMETOOLONG）</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/store/state.py" line="-20"/>
        <source>{name!r} is not a usable server name: it looks like the known server {known!r} (Unicode&apos;s confusables), so the two would be taken for each other. Name it differently</source>
        <translation>{name!r} 不能用作服务器名称：它与已知的服务器 {known!r} 看起来相同（Unicode 易混淆字符），二者会被混淆。请换一个名称</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>{path} is already a root, named {name!r}</source>
        <translation>{path} 已经是根目录，名为 {name!r}</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>no server named {name!r} is known (roots-manager servers list shows them)</source>
        <translation>没有名为 {name!r} 的已知服务器（roots-manager servers list 可列出它们）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{name!r} cannot name this root: the root {path} is named {other!r}, which looks the same (Unicode&apos;s confusables). Name it differently</source>
        <translation>{name!r} 不能用作此根目录的名称: 根目录 {path} 的名称 {other!r} 看起来相同（Unicode 易混淆字符）。请换一个名称</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>unknown policy {policy!r}; choose one of {choices}</source>
        <translation>未知策略 {policy!r}；请从 {choices} 中选择一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no pending consent request for {ref!r}</source>
        <translation>{ref!r} 没有待处理的授权请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server {name!r} has not run yet; there is nothing to approve</source>
        <translation>服务器 {name!r} 尚未运行过，没有可批准的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{given!r} is not a command fingerprint (64 hexadecimal digits; roots-manager servers list --json shows each server&apos;s)</source>
        <translation>{given!r} 不是命令指纹（应为 64 位十六进制数字；roots-manager servers list --json 可显示每个服务器的指纹）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>server {name!r} last ran with another command line than the one expected: {command} (fingerprint {seen}); look at it again before approving</source>
        <translation>服务器 {name!r} 最近一次运行使用的命令行与预期的不同：{command}（指纹 {seen}）；请重新查看后再批准</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a root&apos;s name cannot be empty</source>
        <translation>根目录的名称不能为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root&apos;s name cannot hold control or text-direction characters ({chars})</source>
        <translation>根目录的名称不能包含控制字符或文字方向字符（{chars}）</translation>
    </message>
    <message>
        <location line="-62"/>
        <source>{name!r} is not a usable server name: it is empty</source>
        <translation>{name!r} 不能用作服务器名称：名称为空</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name!r} is not a usable server name: it holds control or text-direction characters ({chars})</source>
        <translation>{name!r} 不能用作服务器名称：它包含控制字符或文字方向字符（{chars}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name!r} is not a usable server name: it holds characters that cannot be seen ({chars}), so it would look like another name</source>
        <translation>{name!r} 不能用作服务器名称：它包含看不见的字符（{chars}），看起来会与其他名称相同</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name!r} is not a usable server name: it begins or ends with a space, so it would look like another name</source>
        <translation>{name!r} 不能用作服务器名称：它以空格开头或结尾，看起来会与其他名称相同</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/store/log_limits.py" line="+14"/>
        <source>the traffic log size limit must be a whole number of MiB from 0 (no limit) to {top}, not {value!r}</source>
        <translation>流量日志的大小上限必须是 0（不限）到 {top} 之间的整数（MiB），不能是 {value!r}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the traffic log age limit must be a whole number of days from 0 (no limit) to {top}, not {value!r}</source>
        <translation>流量日志的保留期限必须是 0（不限）到 {top} 之间的整数（天），不能是 {value!r}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/roots/uri.py" line="+34"/>
        <source>a path cannot contain a NUL character: {path!r}</source>
        <translation>路径不能包含 NUL 字符：{path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not an absolute path: {path!r}</source>
        <translation>不是绝对路径：{path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a UNC path needs a server and a share: {path!r}</source>
        <translation>UNC 路径需要服务器名和共享名：{path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not an absolute Windows path (drive or UNC): {path!r}</source>
        <translation>不是 Windows 绝对路径（驱动器或 UNC）：{path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a Windows device or volume path has no file URI: {path!r}</source>
        <translation>Windows 设备或卷路径没有 file URI：{path!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a URI (no scheme); a root must be a file:// URI: {uri!r}</source>
        <translation>不是 URI（没有协议）；根目录必须是 file:// URI：{uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>only file:// URIs can be roots, not {scheme}: {uri!r}</source>
        <translation>只有 file:// URI 可以作为根目录，不能使用 {scheme}：{uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI cannot have a query (an unencoded &apos;?&apos;): {uri!r}</source>
        <translation>根目录 URI 不能带查询部分（未编码的“?”）：{uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI cannot have a fragment (an unencoded &apos;#&apos;): {uri!r}</source>
        <translation>根目录 URI 不能带片段（未编码的“#”）：{uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not an absolute file URI: {uri!r}</source>
        <translation>不是绝对路径的 file URI：{uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI cannot encode a path separator (%2F): {uri!r}</source>
        <translation>根目录 URI 不能编码路径分隔符（%2F）：{uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI cannot encode a NUL character (%00): {uri!r}</source>
        <translation>根目录 URI 不能编码 NUL 字符（%00）：{uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a root URI must name this machine (no host, or localhost): {uri!r}</source>
        <translation>根目录 URI 必须指向本机（不带主机名，或为 localhost）：{uri!r}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not an absolute Windows file URI (drive or UNC): {uri!r}</source>
        <translation>不是 Windows 绝对路径的 file URI（驱动器或 UNC）：{uri!r}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a broken percent escape in {uri!r}</source>
        <translation>{uri!r} 中有损坏的百分号转义</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{uri!r} encodes bytes that are not UTF-8</source>
        <translation>{uri!r} 编码了不是 UTF-8 的字节</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{uri!r} holds raw bytes that are not UTF-8</source>
        <translation>{uri!r} 直接包含了不是 UTF-8 的字节</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/confinement/offers.py" line="+120"/>
        <source>{offer} is not offered for the refusal of {path}: {why}</source>
        <translation>对 {path} 的拒绝不提供 {offer}：{why}</translation>
    </message>
</context>
<context>
    <name>CoreText</name>
    <message>
        <location filename="../../app/roots_manager/core/confinement/confined.py" line="+55"/>
        <source>confined: the kernel refuses every file outside what was granted; the network is not restricted</source>
        <translation>已限制：内核拒绝访问授权范围以外的所有文件；网络不受限制</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>confined: the kernel refuses every file outside what was granted, and every network connection</source>
        <translation>已限制：内核拒绝访问授权范围以外的所有文件，以及所有网络连接</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>confined: the kernel refuses every file outside what was granted, and the network reaches only its domains, through Roots Manager&apos;s proxy</source>
        <translation>已限制：内核拒绝访问授权范围以外的所有文件，网络只能经由 Roots Manager 的代理访问其域名</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not confined: roots are advice, the server may read anything your user can, and read-only grants are not enforced</source>
        <translation>未限制：根目录只是建议，服务器可以读取你的用户能读取的任何内容，只读授权也不会被强制执行</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>grants made or revoked while a confined server runs restart it with the new rules, unseen by the host</source>
        <translation>已限制的服务器运行期间授予或撤销的授权会使其以新规则重启，主机察觉不到</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>restart on revoke is off: grants made or revoked while a confined server runs take effect at its next start</source>
        <translation>撤销时重启已关闭：已限制的服务器运行期间授予或撤销的授权在其下次启动时生效</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/confinement/learning.py" line="+40"/>
        <source>a connection, not a path</source>
        <translation>连接，不是路径</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no longer a folder</source>
        <translation>已不再是文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no longer there</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server may do this now</source>
        <translation>服务器现在已可以这样做</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/confinement/offers.py" line="-19"/>
        <source>the whole file system</source>
        <translation>整个文件系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the home folder, or a folder holding it</source>
        <translation>主文件夹或包含它的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>credentials ({path})</source>
        <translation>凭据（{path}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>another user&apos;s home</source>
        <translation>其他用户的主目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a system file that cannot be looked at</source>
        <translation>无法查看的系统文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a system file others may not read</source>
        <translation>其他用户不可读的系统文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the kernel&apos;s view of processes</source>
        <translation>内核的进程视图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a path</source>
        <translation>不是路径</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a domain ({domain})</source>
        <translation>不是域名（{domain}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>too broad</source>
        <translation>范围过宽</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a protected place, which no grant opens (servers show NAME says why)</source>
        <translation>受保护的位置，任何授权都不会开放它（原因见 servers show NAME）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Roots Manager&apos;s own code or state ({path}): a server that wrote it would run free</source>
        <translation>Roots Manager 自身的代码或状态 ({path})：服务器写入后将在限制之外运行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a place kept read-only whatever is granted ({path}): what is there runs later</source>
        <translation>无论授权什么都保持只读的位置 ({path})：其中的内容稍后会运行</translation>
    </message>
</context>
<context>
    <name>DenialNotice</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/denial_notice.py" line="+71"/>
        <source>A confined server was refused</source>
        <translation>受限制的服务器遭到拒绝</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Allow &amp;folder</source>
        <translation>允许文件夹(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;read-only</source>
        <translation>以只读方式允许(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow this fi&amp;le</source>
        <translation>允许此文件(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow and ma&amp;ke</source>
        <translation>允许并创建(&amp;K)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;domain</source>
        <translation>允许域名(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>I&amp;gnore</source>
        <translation>忽略(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ignore all start-&amp;up</source>
        <translation>忽略所有启动时拒绝(&amp;U)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All refu&amp;sals…</source>
        <translation>所有拒绝…(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Always</source>
        <translation>始终</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until it ends</source>
        <translation>直到它结束</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This once</source>
        <translation>仅此一次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How long to allow</source>
        <translation>允许多久</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow for:</source>
        <translation>允许期限：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Always: a grant, saved, which its next start gets. Until it ends, and this once: the reads are served while it runs, or only those waiting now; nothing is saved.</source>
        <translation>始终：保存的授权，下次启动时也适用。直到它结束、仅此一次：在它运行期间的读取，或仅当前等待的读取会被允许；不保存任何内容。</translation>
    </message>
    <message numerus="yes">
        <location line="+80"/>
        <source>%n refusal(s) of this domain.</source>
        <translation>
            <numerusform>此域名有 %n 次拒绝。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n refusal(s) of this folder.</source>
        <translation>
            <numerusform>此文件夹有 %n 次拒绝。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not offered in one click: {why}.</source>
        <translation>不提供一键允许：{why}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a path</source>
        <translation>不是路径</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No folder offered: {why}.</source>
        <translation>不提供文件夹：{why}。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>(%n other(s) waiting)</source>
        <translation>
            <numerusform>（另有 %n 项在等待）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Refuse the call that waits, now, and stop showing it</source>
        <translation>立即拒绝正在等待的调用，并不再显示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop showing it; it stays in the Log</source>
        <translation>不再显示；它仍保留在日志中</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Let {server} reach {domain} through Roots Manager&apos;s proxy, from its next start</source>
        <translation>从下次启动起，允许 {server} 经由 Roots Manager 的代理访问 {domain}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Make {folder}, a folder of its own, and let it write there</source>
        <translation>创建它专用的文件夹 {folder}，并允许它在其中写入</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>Stop showing the %n start-up refusal(s) of {server}</source>
        <translation>
            <numerusform>不再显示 {server} 的 %n 项启动时拒绝</numerusform>
        </translation>
    </message>
    <message>
        <location line="+25"/>
        <source>{server} was refused {path} ({operation}) at start-up.</source>
        <translation>{server} 在启动时被拒绝访问 {path}（{operation}）。</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>{server} asks to {operation} {path} while running {request}: the call waits %n second(s) more for your answer.</source>
        <translation>
            <numerusform>{server} 在运行 {request} 时请求{operation} {path}：该调用还会等待你的回答 %n 秒。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{server} was refused {path} ({operation}) while running {request}.</source>
        <translation>{server} 在运行 {request} 时被拒绝访问 {path}（{operation}）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{server} was refused {path} ({operation}) between requests.</source>
        <translation>{server} 在两次请求之间被拒绝访问 {path}（{operation}）。</translation>
    </message>
</context>
<context>
    <name>DetectDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/roots/detect.py" line="+65"/>
        <source>Detect projects</source>
        <translation>检测项目</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Folder to search</source>
        <translation>要搜索的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search &amp;in:</source>
        <translation>搜索位置(&amp;I)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Scan</source>
        <translation>扫描(&amp;S)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Scan progress</source>
        <translation>扫描进度</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Choose a folder and press Scan.</source>
        <translation>选择一个文件夹，然后点击“扫描”。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cance&amp;l scan</source>
        <translation>取消扫描(&amp;L)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Projects found</source>
        <translation>找到的项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Projects found:</source>
        <translation>找到的项目(&amp;P)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Tick all</source>
        <translation>全部勾选(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Untick all</source>
        <translation>全部取消勾选(&amp;U)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Add checked</source>
        <translation>添加勾选项(&amp;A)</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Search for projects in</source>
        <translation>在此搜索项目</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{path} is not a folder.</source>
        <translation>{path} 不是文件夹。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Searching {path}…</source>
        <translation>正在搜索 {path}…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%p% (%n folder(s))</source>
        <translation>
            <numerusform>%p%（%n 个文件夹）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>%n folder(s)</source>
        <translation>
            <numerusform>%n 个文件夹</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Cancelled after {visited}; %n project(s) found so far.</source>
        <translation>
            <numerusform>已在检查 {visited}后取消；目前找到 %n 个项目。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n project(s) found in {visited}.</source>
        <translation>
            <numerusform>在 {visited}中找到 %n 个项目。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No project found in {visited}.</source>
        <translation>在 {visited}中没有找到项目。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Found by: {markers}</source>
        <translation>识别依据：{markers}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} — {path} (already a root)</source>
        <translation>{name} — {path}（已是根目录）</translation>
    </message>
</context>
<context>
    <name>HostConnection</name>
    <message>
        <location filename="../../app/roots_manager/gui/connect/host_connection.py" line="+311"/>
        <source>the server refused the handshake: {0}</source>
        <translation>服务器拒绝了握手：{0}</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>the server did not answer the handshake within {0} s</source>
        <translation>服务器未在 {0} 秒内响应握手</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the bridge could not be started ({0}): {1}</source>
        <translation>无法启动桥接器（{0}）：{1}</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>the server stopped before the handshake (exit code {0})</source>
        <translation>服务器在握手前就已停止（退出码 {0}）</translation>
    </message>
</context>
<context>
    <name>HostsModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/hosts/hosts_view.py" line="+107"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Protect</source>
        <translation>保护</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Behind the bridge as {name}</source>
        <translation>以 {name} 的名称经由桥接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not protected</source>
        <translation>未受保护</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A remote server: its roots do not go through the bridge</source>
        <translation>远程服务器：其根目录不经过桥接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot be read: {reason}</source>
        <translation>无法读取：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot be read (line {line}): {reason}</source>
        <translation>无法读取（第 {line} 行）：{reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot be protected: {reason}</source>
        <translation>无法保护：{reason}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{host} ({scope}, discontinued {date})</source>
        <translation>{host}（{scope}，已于 {date} 停止维护）</translation>
    </message>
</context>
<context>
    <name>HostsPanel</name>
    <message>
        <location line="+59"/>
        <source>Hosts and their servers</source>
        <translation>主机及其服务器</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The MCP hosts found on this computer and in your roots. Protect puts a server behind the bridge, so it sees only the folders you grant it; the host&apos;s file keeps everything else, and a backup is kept.</source>
        <translation>在本机和您的根目录中找到的 MCP 主机。“保护”会让服务器经由桥接运行，使其只能看到您授权的文件夹；主机文件的其余内容保持不变，并会保留备份。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>R&amp;efresh</source>
        <translation>刷新(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Undo last change</source>
        <translation>撤销上一次更改(&amp;U)</translation>
    </message>
    <message>
        <location line="+50"/>
        <location line="+41"/>
        <source>roots-bridge cannot be found beside this program; reinstall it.</source>
        <translation>在本程序旁找不到 roots-bridge；请重新安装。</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Restart {host} to apply the change.</source>
        <translation>请重启 {host} 以应用更改。</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>{host} applies the change by itself.</source>
        <translation>{host} 会自动应用更改。</translation>
    </message>
</context>
<context>
    <name>LearnDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/learn_dialog.py" line="+55"/>
        <source>Learn what {server} needs</source>
        <translation>学习 {server} 需要什么</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{server} runs confined while it learns: use it from its host as usual. At the end, the smallest grants that would have allowed what it was refused are proposed; never /, your home folder or a secret.</source>
        <translation>学习期间 {server} 在限制下运行：照常从其主机使用它。结束时会提出能允许其被拒绝操作的最小授权；绝不包括 /、主文件夹或机密。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How long to learn</source>
        <translation>学习多长时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop now</source>
        <translation>立即停止</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The grants proposed</source>
        <translation>提议的授权</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Grant the ticked ones</source>
        <translation>授予已勾选的项</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Learn for</source>
        <translation>学习时长</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>{server} is running unconfined now and cannot be restarted confined: it is learned from its next start. Have its host start it again.</source>
        <translation>{server} 当前在无限制下运行，无法以限制方式重启：将从其下次启动开始学习。请让其主机重新启动它。</translation>
    </message>
    <message numerus="yes">
        <location line="+18"/>
        <source>%n refused so far</source>
        <translation>
            <numerusform>目前已拒绝 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{minutes}:{seconds:02d} left</source>
        <translation>剩余 {minutes}：{seconds:02d}</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Left out: {path} ({reason})</source>
        <translation>已排除：{path}（{reason}）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing was refused: was the server used while learning?</source>
        <translation>没有任何拒绝：学习期间使用过该服务器吗？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing to propose: what was refused is left out.</source>
        <translation>没有可提议的：被拒绝的都已排除。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n refused. Proposed grants, to accept or untick:</source>
        <translation>
            <numerusform>已拒绝 %n 次。提议的授权（接受或取消勾选）：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Domain, through the proxy: {domain}</source>
        <translation>域名（经由代理）：{domain}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Make its own folder: {path}</source>
        <translation>创建它专用的文件夹：{path}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This file, read-only: {path}</source>
        <translation>此文件（只读）：{path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This file: {path}</source>
        <translation>此文件：{path}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Folder, read-only: {path}</source>
        <translation>文件夹（只读）：{path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Folder: {path}</source>
        <translation>文件夹：{path}</translation>
    </message>
</context>
<context>
    <name>LogModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_model.py" line="+40"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location line="+140"/>
        <source>(no longer on disk)</source>
        <translation>（已不在磁盘上）</translation>
    </message>
</context>
<context>
    <name>LogPanel</name>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+78"/>
        <source>Server filter</source>
        <translation>服务器筛选</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kind filter</source>
        <translation>类型筛选</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Text filter</source>
        <translation>文本筛选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text in the summary or the JSON (Ctrl+F)</source>
        <translation>摘要或 JSON 中的文本（Ctrl+F）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>F&amp;ollow newest</source>
        <translation>跟随最新(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow the newest events</source>
        <translation>跟随最新事件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the newest event in view as events arrive</source>
        <translation>有新事件到达时始终显示最新事件</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+174"/>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <location line="-172"/>
        <source>Pause the log</source>
        <translation>暂停日志</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hold new events back so the view stays still; they are shown on resume</source>
        <translation>暂不显示新事件，让视图保持不动；恢复后会显示它们</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Clear the view</source>
        <translation>清空视图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide the events shown now; the log files keep them</source>
        <translation>隐藏当前显示的事件；日志文件仍会保留它们</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_export.py" line="+36"/>
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+11"/>
        <source>Export the shown events</source>
        <translation>导出显示的事件</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+1"/>
        <source>Save the events shown as JSON Lines or CSV</source>
        <translation>将显示的事件保存为 JSON Lines 或 CSV</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Kind:</source>
        <translation>类型(&amp;K)：</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Allow…</source>
        <translation>允许…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow what the selected refusal asked</source>
        <translation>允许所选拒绝所请求的内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Grant the server what the selected refusal asked for, in one click, as the refusal notice does (Ctrl+Shift+A, or right-click the row)</source>
        <translation>像拒绝通知那样，一键授予服务器所选拒绝所请求的内容（Ctrl+Shift+A，或右键单击该行）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Event details</source>
        <translation>事件详情</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select an event to see its JSON</source>
        <translation>选择一个事件以查看其 JSON</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Log status</source>
        <translation>日志状态</translation>
    </message>
    <message numerus="yes">
        <location line="+97"/>
        <source>Exported %n event(s) to {path}</source>
        <translation>
            <numerusform>已将 %n 个事件导出到 {path}</numerusform>
        </translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Allow what this refusal asked</source>
        <translation>允许此拒绝所请求的内容</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>That event is hidden by the filter or the cleared view</source>
        <translation>该事件被筛选条件或已清空的视图隐藏了</translation>
    </message>
    <message numerus="yes">
        <location line="+79"/>
        <source>Showing {shown} of %n event(s)</source>
        <translation>
            <numerusform>显示 %n 个事件中的 {shown} 个</numerusform>
        </translation>
    </message>
    <message>
        <location line="-398"/>
        <source>Cle&amp;ar view</source>
        <translation>清空视图(&amp;A)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>S&amp;erver:</source>
        <translation>服务器(&amp;E)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>F&amp;ilter:</source>
        <translation>筛选(&amp;I)：</translation>
    </message>
    <message>
        <location line="+148"/>
        <source>Res&amp;ume</source>
        <translation>恢复(&amp;U)</translation>
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
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not write {path}: {error}</source>
        <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_view.py" line="+167"/>
        <source>This event is no longer on disk.</source>
        <translation>此事件已不在磁盘上。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Filtering…</source>
        <translation>正在筛选…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No event matches the filter.</source>
        <translation>没有符合筛选条件的事件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The view was cleared; new events appear here as they come.</source>
        <translation>视图已清空；新事件到达时会显示在这里。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No events yet. Each server run behind roots-bridge logs here its handshake, every roots/list and every list_changed.</source>
        <translation>还没有事件。每个在 roots-bridge 之后运行的服务器的握手、每次 roots/list 和每次 list_changed 都会记录在这里。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>All servers</source>
        <translation>所有服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>filtering, {percent}% done</source>
        <translation>正在筛选，已完成 {percent}%</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>paused, {n} new</source>
        <translation>已暂停，{n} 个新事件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not following: {error}</source>
        <translation>未跟随：{error}</translation>
    </message>
</context>
<context>
    <name>LogSummary</name>
    <message>
        <location filename="../../app/roots_manager/core/log/events.py" line="+245"/>
        <source>started {command} (pid {pid}, {mode})</source>
        <translation>已启动 {command}（PID {pid}，{mode}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ended, exit code {code}</source>
        <translation>已结束，退出代码 {code}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ended, exit code {code} ({reason})</source>
        <translation>已结束，退出代码 {code}（{reason}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>protocol {protocol}</source>
        <translation>协议 {protocol}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>protocol {protocol}, roots capability injected</source>
        <translation>协议 {protocol}，已添加 roots 能力</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the server asked for its roots</source>
        <translation>服务器请求了它的根目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server asked for its roots in a batch</source>
        <translation>服务器在批处理中请求了它的根目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server asked for its roots (held until you decide)</source>
        <translation>服务器请求了它的根目录（在你决定之前暂缓答复）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots/list relayed to the host</source>
        <translation>已将 roots/list 转发给主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no roots</source>
        <translation>没有根目录</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>roots changed, now no roots</source>
        <translation>根目录已变更，现在没有根目录</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>1 root: {paths}</source>
        <translation>1 个根目录：{paths}</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>the host&apos;s initialized is held until the server has answered initialize</source>
        <translation>主机的 initialized 被暂留，直到服务器答复 initialize</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the host&apos;s handshake, no protocol version named yet</source>
        <translation>主机的握手，尚未指明协议版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host&apos;s first request waited {ms} ms for the server&apos;s roots</source>
        <translation>主机的第一个请求等待了 {ms} 毫秒，直到服务器取得其根目录</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the host&apos;s first request waited {ms} ms; the server did not ask for its roots</source>
        <translation>主机的第一个请求等待了 {ms} 毫秒；服务器没有请求其根目录</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{count} roots: {paths}</source>
        <translation>{count} 个根目录：{paths}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>roots changed, now 1 root: {paths}</source>
        <translation>根目录已变更，现在有 1 个：{paths}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots changed, now {count} roots: {paths}</source>
        <translation>根目录已变更，现在有 {count} 个：{paths}</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../app/roots_manager/gui/log/log_texts.py" line="+36"/>
        <source>list_changed relayed</source>
        <translation>已转发 list_changed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>list_changed sent on request</source>
        <translation>已按请求发送 list_changed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>list_changed not sent on request: the server has not fetched the list since the last notice</source>
        <translation>未按请求发送 list_changed：自上次通知以来，服务器尚未获取列表</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>list_changed not sent on request: the handshake is not complete</source>
        <translation>未按请求发送 list_changed：握手尚未完成</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>list_changed not sent on request: protocol 2026-07-28 has no list_changed</source>
        <translation>未按请求发送 list_changed：协议 2026-07-28 中没有 list_changed</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>list_changed not sent on request: the bridge only observes</source>
        <translation>未按请求发送 list_changed：桥接器处于仅观察模式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting up to {timeout} s for your decision in the desktop app</source>
        <translation>正在等待你在桌面应用中做出决定，最多 {timeout} 秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the decision arrived</source>
        <translation>已收到决定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>denied: answered with no folder</source>
        <translation>已拒绝：以无文件夹作答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no decision in time: answered with what is granted</source>
        <translation>未及时做出决定：已按已授权的内容答复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>consent changed ({reason}): restarting the server, the host&apos;s messages wait</source>
        <translation>授权已更改（{reason}）：正在重启服务器，主机的消息暂缓发送</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>restarted for a consent change: pid {old} is now pid {new}; the host waited {ms} ms</source>
        <translation>因授权更改而重启：pid {old} 现为 pid {new}；主机等待了 {ms} 毫秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the server could not be restarted: {why}</source>
        <translation>无法重启服务器：{why}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart asked: restarting the server</source>
        <translation>请求重启：正在重启服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart asked: a restart is under way, the server starts afresh</source>
        <translation>请求重启：已有重启正在进行，服务器将重新启动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>restart asked, not done: this bridge cannot restart its server (turn on restart on revoke or confinement, from its next start)</source>
        <translation>请求重启未执行：此桥接器无法重启其服务器（打开撤销时重启或限制，从其下次启动起生效）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>restarting the server on request, the host&apos;s messages wait</source>
        <translation>应请求正在重启服务器，主机的消息暂缓发送</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restarted on request: pid {old} is now pid {new}; the host waited {ms} ms</source>
        <translation>已应请求重启：pid {old} 现为 pid {new}；主机等待了 {ms} ms</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{bytes} bytes that are not {reason}</source>
        <translation>{bytes} 字节不是 {reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>response</source>
        <translation>响应</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{text}</source>
        <translation>{text}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/log/log_texts.py" line="-14"/>
        <source>managed</source>
        <translation>管理模式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>observing only</source>
        <translation>仅观察</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>bridge started</source>
        <translation>桥接启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bridge ended</source>
        <translation>桥接结束</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>handshake</source>
        <translation>握手</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots asked</source>
        <translation>请求根目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots answered</source>
        <translation>回答根目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots relayed</source>
        <translation>转发根目录请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>list_changed sent</source>
        <translation>已发送 list_changed</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>list_changed asked</source>
        <translation>请求 list_changed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>roots given in a retry</source>
        <translation>在重试中提供根目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>consent awaited</source>
        <translation>等待授权</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>consent decided</source>
        <translation>授权已决定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart asked</source>
        <translation>请求重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server restarting</source>
        <translation>服务器正在重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server restarted</source>
        <translation>服务器已重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart failed</source>
        <translation>重启失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not JSON</source>
        <translation>非 JSON</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refusal</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>host → server</source>
        <translation>主机 → 服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server → host</source>
        <translation>服务器 → 主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bridge → server</source>
        <translation>桥接 → 服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bridge → host</source>
        <translation>桥接 → 主机</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>host closed stdin</source>
        <translation>主机关闭了标准输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host stopped reading</source>
        <translation>主机停止了读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server closed its stdout</source>
        <translation>服务器关闭了标准输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server exited</source>
        <translation>服务器已退出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot start</source>
        <translation>无法启动</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{signal} received</source>
        <translation>收到 {signal}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/core/log/denials.py" line="+177"/>
        <source>at start-up</source>
        <translation>启动时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>while {requests}</source>
        <translation>执行 {requests} 时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{first} and {second}</source>
        <translation>{first} 和 {second}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>between requests</source>
        <translation>两次请求之间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder}/ ({count} more refused)</source>
        <translation>{folder}/（另有 {count} 项被拒绝）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} (+{count} more in its folder)</source>
        <translation>{path}（同一文件夹中另有 {count} 项）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{what} (a protected place: no grant opens it)</source>
        <translation>{what}（受保护的位置：任何授权都无法打开）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{what} (the call could wait {seconds} s for a grant)</source>
        <translation>{what}（该调用可等待授权 {seconds} 秒）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{operation} {what} refused {during}</source>
        <translation>{during}拒绝了对 {what} 的{operation}</translation>
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
        <translation>分区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Roots</source>
        <translation>根目录(&amp;R)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Log</source>
        <translation>日志(&amp;L)</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Servers and consen&amp;t</source>
        <translation>服务器与授权(&amp;T)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Revie&amp;w…</source>
        <translation>查看(&amp;W)…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Re&amp;cover…</source>
        <translation>恢复(&amp;C)…</translation>
    </message>
    <message>
        <location line="-217"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Add folder…</source>
        <translation>添加文件夹(&amp;A)…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Detect projects…</source>
        <translation>检测项目(&amp;D)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Recent folders</source>
        <translation>最近的文件夹(&amp;R)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Close window</source>
        <translation>关闭窗口(&amp;C)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Servers</source>
        <translation>服务器(&amp;S)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Connect a server…</source>
        <translation>连接服务器(&amp;C)…</translation>
    </message>
    <message numerus="yes">
        <location line="+272"/>
        <source>%n server(s) wait for your decision</source>
        <translation>
            <numerusform>%n 个服务器在等待你的决定</numerusform>
        </translation>
    </message>
    <message>
        <location line="+192"/>
        <source>{server} was not connected from this app</source>
        <translation>{server} 不是由本应用连接的</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Disconnect {server}?</source>
        <translation>断开 {server}？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Disconnect {server}? Its bridge and the server stop.</source>
        <translation>要断开 {server} 吗？它的桥接程序和服务器都会停止。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Disconnect</source>
        <translation>断开连接(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keep running</source>
        <translation>继续运行(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/shell/help_boxes.py" line="+70"/>
        <source>The server then appears in the Servers and consent tab the first time it runs, and sees only the roots you grant it.</source>
        <translation>服务器首次运行时会出现在“服务器与授权”标签页中，并且只能看到你授予它的根目录。</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/shell/main_window.py" line="-464"/>
        <source>&amp;Review pending requests…</source>
        <translation>查看待处理的请求(&amp;R)…</translation>
    </message>
    <message>
        <location line="+285"/>
        <source>Changed {path}</source>
        <translation>已更改 {path}</translation>
    </message>
    <message>
        <location line="-157"/>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message numerus="yes">
        <location line="+51"/>
        <source>Added %n root(s)</source>
        <translation>
            <numerusform>已添加 %n 个根目录</numerusform>
        </translation>
    </message>
    <message>
        <location line="-173"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;What roots are</source>
        <translation>什么是根目录(&amp;W)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Use with your &amp;host…</source>
        <translation>在主机中使用(&amp;H)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;About Roots Manager</source>
        <translation>关于 Roots Manager(&amp;A)</translation>
    </message>
    <message>
        <location line="+189"/>
        <source>{server} may reach {domain} through Roots Manager&apos;s proxy, from its next start.</source>
        <translation>从下次启动起，{server} 可经由 Roots Manager 的代理访问 {domain}。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Granted {path} to {server}.</source>
        <translation>已将 {path} 授予 {server}。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Allowed {path} to {server} this once.</source>
        <translation>已允许 {server} 访问 {path}，仅此一次。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allowed {path} to {server} until it ends.</source>
        <translation>已允许 {server} 访问 {path}，直到其结束。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>The store cannot be read; changes are not possible until it is recovered.</source>
        <translation>无法读取存储文件；恢复之前无法进行更改。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Changed {count} files: {paths}</source>
        <translation>已更改 {count} 个文件：{paths}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Restart Roots Manager?</source>
        <translation>要重新启动 Roots Manager 吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The new language applies when Roots Manager starts again.</source>
        <translation>新的语言将在 Roots Manager 再次启动时生效。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The servers connected from the app will be disconnected: {names}.</source>
        <translation>从本应用连接的服务器将被断开：{names}。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Restart now</source>
        <translation>立即重新启动(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Later</source>
        <translation>稍后(&amp;L)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Asked {server}&apos;s bridge for a list_changed; the Log shows whether it went out and whether the server asks again</source>
        <translation>已请求 {server} 的桥接器发送 list_changed；可在“日志”中查看它是否已发出、服务器是否再次询问</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Asked the {count} bridges of {server} for a list_changed; the Log shows whether it went out and whether the server asks again</source>
        <translation>已请求 {server} 的 {count} 个桥接器发送 list_changed；可在“日志”中查看它是否已发出、服务器是否再次询问</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Asked %n bridge(s) of {server} to restart it; the Log shows the restart</source>
        <translation>
            <numerusform>已请求 {server} 的 %n 个桥接器重启它；日志会显示重启</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Connected {server}</source>
        <translation>已连接 {server}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{server} ended (exit code {code})</source>
        <translation>{server} 已结束（退出代码 {code}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not connect {server}: {message}</source>
        <translation>无法连接 {server}：{message}</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Connecting {server}…</source>
        <translation>正在连接 {server}…</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Disconnected {server}</source>
        <translation>已断开 {server}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/shell/help_boxes.py" line="-50"/>
        <source>What roots are</source>
        <translation>什么是根目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roots are the folders an MCP server is told to work in. Roots Manager answers each server&apos;s roots/list with only the roots you granted it, and tells running servers when that changes.

Roots tell a server where to look. A confined server (the default where this machine can confine) is held to its grants by the kernel; for a server that is not confined they are not an access control: it can still open any file its process is allowed to. Watch the Log to see what each server asks for, and what a confined one was refused.</source>
        <translation>根目录是告知 MCP 服务器在其中工作的文件夹。Roots Manager 只用你授权给各服务器的根目录来回答它的 roots/list，并在授权变化时通知正在运行的服务器。

根目录告诉服务器该去哪里查看。受限的服务器（在本机可以限制时为默认）会被内核约束在其授权范围内；对于不受限的服务器，根目录并不是访问控制：它仍然可以打开其进程有权访问的任何文件。在“日志”中可以查看每个服务器请求了什么，以及受限的服务器被拒绝了什么。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Use with your host</source>
        <translation>在主机中使用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>In your host&apos;s configuration (Claude Desktop, VS Code, Cursor, ...), start roots-bridge instead of the server: give it a name for the server, then &lt;code&gt;--&lt;/code&gt; and the server&apos;s own command line. For example, in Claude Desktop&apos;s claude_desktop_config.json:</source>
        <translation>在主机（Claude Desktop、VS Code、Cursor 等）的配置中，启动 roots-bridge 来代替服务器：先为服务器指定一个名称，然后写 &lt;code&gt;--&lt;/code&gt; 和服务器自己的命令行。例如在 Claude Desktop 的 claude_desktop_config.json 中：</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>About Roots Manager</source>
        <translation>关于 Roots Manager</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roots Manager {version}

Decide which of your folders each MCP server may see, and watch what it does with them.</source>
        <translation>Roots Manager {version}

决定每个 MCP 服务器可以看到你的哪些文件夹，并查看它如何使用它们。</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/shell/app.py" line="-210"/>
        <source>The store was recovered: {how}</source>
        <translation>存储文件已恢复：{how}</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Decision for {server} saved</source>
        <translation>已保存对 {server} 的决定</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Roots Manager keeps running</source>
        <translation>Roots Manager 将继续运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>It stays in the tray to ask you about new servers. Choose Quit from the tray icon&apos;s menu to end it. Your servers keep working either way.</source>
        <translation>它会留在托盘中，以便就新服务器询问你。要结束它，请从托盘图标的菜单中选择“退出”。无论哪种情况，你的服务器都会继续工作。</translation>
    </message>
</context>
<context>
    <name>NetworkBox</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/network_box.py" line="+48"/>
        <source>N&amp;etwork when confined:</source>
        <translation>受限时的网络(&amp;E)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allowed</source>
        <translation>允许</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only these domains</source>
        <translation>仅限这些域名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>阻止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Network when confined</source>
        <translation>受限时的网络</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Allowed: it may connect anywhere. Only these domains: it reaches the network only through Roots Manager&apos;s proxy, and through it only the domains listed. Blocked: no network connection at all. A change takes effect at its next start.</source>
        <translation>允许：可以连接任何地方。仅限这些域名：只能经由 Roots Manager 的代理访问网络，并且只能访问列出的域名。阻止：完全不能建立网络连接。更改在下次启动时生效。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Domains it may reach</source>
        <translation>可访问的域名</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No domain yet: every connection is refused until you add one.</source>
        <translation>还没有域名：在你添加之前，所有连接都会被拒绝。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>api.github.com, *.npmjs.org or an address</source>
        <translation>api.github.com、*.npmjs.org 或地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Domain to add</source>
        <translation>要添加的域名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A name (api.github.com: that name alone), every name beneath one (*.npmjs.org), or an address; Enter adds it</source>
        <translation>一个名称（api.github.com：仅此名称）、某名称下的所有名称（*.npmjs.org）或一个地址；按 Enter 添加</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Add domain</source>
        <translation>添加域名</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Take the selected domains away (Delete)</source>
        <translation>移除所选域名（Delete）</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>{text} is not a domain: write a name (api.github.com), every name beneath one (*.npmjs.org) or an address, without a port or a scheme.</source>
        <translation>{text} 不是域名：请写一个名称（api.github.com）、某名称下的所有名称（*.npmjs.org）或一个地址，不带端口或协议。</translation>
    </message>
</context>
<context>
    <name>ProbeDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/probe/probe_dialog.py" line="+67"/>
        <source>Probe {server}</source>
        <translation>探测 {server}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>What the probe &amp;does</source>
        <translation>探测的内容(&amp;D)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Without {allow} the probe cannot tell the server&apos;s own refusals from its roots&apos;: add it where the server takes its folder.</source>
        <translation>没有 {allow}，探测无法区分服务器自身的拒绝和根目录造成的拒绝：请在服务器接收文件夹的位置加上它。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Add {allow}</source>
        <translation>添加 {allow}(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server&apos;s command line</source>
        <translation>服务器的命令行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>npx -y some-server {allow}</source>
        <translation>npx -y some-server {allow}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Command:</source>
        <translation>命令(&amp;C)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>initialize handshake</source>
        <translation>initialize 握手</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>2026-07-28 (roots with each request)</source>
        <translation>2026-07-28（根随每个请求送达）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Protocol:</source>
        <translation>协议(&amp;P)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>What the probe found</source>
        <translation>探测结果</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Probe matrix</source>
        <translation>探测矩阵</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Request and answer</source>
        <translation>请求与应答</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Select a cell to see the request sent and the answer received.</source>
        <translation>选择一个单元格，查看发送的请求和收到的应答。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ca&amp;ncel</source>
        <translation>取消(&amp;N)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>C&amp;lose</source>
        <translation>关闭(&amp;L)</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>The command line cannot be read: {reason}</source>
        <translation>无法读取命令行：{reason}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Give the server&apos;s command line first.</source>
        <translation>请先填写服务器的命令行。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Starting the server…</source>
        <translation>正在启动服务器…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cancelling: stopping the server…</source>
        <translation>正在取消：正在停止服务器…</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The probe failed: {reason}</source>
        <translation>探测失败：{reason}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancelled. The server was stopped.</source>
        <translation>已取消。服务器已停止。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Saved as {file}.</source>
        <translation>已保存为 {file}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The table could not be saved: {reason}</source>
        <translation>无法保存表格：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{rows} rows in {seconds} s.</source>
        <translation>{rows} 行，用时 {seconds} 秒。</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>%n row(s) changed since the previous run ({when}, version {version})</source>
        <translation>
            <numerusform>自上次运行（{when}，版本 {version}）以来有 %n 行发生变化</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n row(s) changed since the previous run ({when}, no version)</source>
        <translation>
            <numerusform>自上次运行（{when}，无版本）以来有 %n 行发生变化</numerusform>
        </translation>
    </message>
    <message>
        <location line="+44"/>
        <source>The server&apos;s own allowance is unknown (no {allow} in its command line): a refusal outside the root proves less.</source>
        <translation>服务器自身允许的范围未知（其命令行中没有 {allow}）：根外的拒绝证明力较弱。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Compared with the run of {when} (version {version}):</source>
        <translation>与 {when} 的运行（版本 {version}）相比：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compared with the run of {when} (no version):</source>
        <translation>与 {when} 的运行（无版本）相比：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No row changed its outcome.</source>
        <translation>没有哪一行的结果发生变化。</translation>
    </message>
</context>
<context>
    <name>ProbeHeadline</name>
    <message>
        <location filename="../../app/roots_manager/core/probe/headline.py" line="+27"/>
        <source>Keeps to its roots</source>
        <translation>只在根目录内操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Takes roots as advice only</source>
        <translation>只把根目录当作参考</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Uses only the first root</source>
        <translation>只使用第一个根目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Checks reads but not writes</source>
        <translation>检查读取但不检查写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Checks writes but not reads</source>
        <translation>检查写入但不检查读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Asks again after a change</source>
        <translation>变更后会再次请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keeps its old folders when given none</source>
        <translation>收到空列表后仍使用旧文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A symbolic link leads it out of its roots</source>
        <translation>符号链接能让它走出根目录</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Takes a folder whose name starts with a root&apos;s for the root</source>
        <translation>把名称以根目录名开头的文件夹当作根目录</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing to probe: {server} has no tool that takes a path.</source>
        <translation>没有可探测的内容：{server} 没有接收路径的工具。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{server} keeps to its roots: {refused} of {outside} outside targets refused</source>
        <translation>{server} 只在根目录内操作：{outside} 个外部目标中拒绝了 {refused} 个</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{server} does not keep to its roots: {worked} of {outside} outside targets worked; confine it to make your grants hold</source>
        <translation>{server} 不只在根目录内操作：{outside} 个外部目标中有 {worked} 个成功；请限制它以使授权生效</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Whether {server} keeps to its roots is unknown: {refused} of {outside} outside targets refused, but without {{allow}} in its command line a refusal may be its own</source>
        <translation>无法确定 {server} 是否只在根目录内操作：{outside} 个外部目标中拒绝了 {refused} 个，但它的命令行中没有 {{allow}}，拒绝可能来自它自身的限制</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The probe of {server} stopped before it could tell</source>
        <translation>{server} 的探测在得出结论前停止了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, and it asks again after a change</source>
        <translation>，并且变更后会再次请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, but it does not ask again after a change: it keeps the folders it was first told</source>
        <translation>，但变更后不会再次请求：它一直使用最初得到的文件夹</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>; it keeps its old folders when given none</source>
        <translation>；收到空列表后仍使用旧文件夹</translation>
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
        <translation>服务器在临时文件夹中的草稿树上、在专用桥接之后启动，绝不涉及你自己的文件夹或授权；命令行中的 {{allow}} 代表该树的顶层。它的根通信在日志中显示为 {server}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Its roots at the start: packages/checkout and packages/shipping, strictly narrower than the tree.</source>
        <translation>开始时的根：packages/checkout 和 packages/shipping，严格窄于整棵树。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Each tool that takes paths (known once the server lists them) is called on a target inside the root and on partners outside it: a sibling, a sibling whose name starts the same, &apos;..&apos;, a link out, &apos;#&apos; and non-ASCII names.</source>
        <translation>每个接受路径的工具（服务器列出后才知道）都会对根内的目标以及根外的对应目标调用：同级目录、名称前缀相同的同级目录、“..”、指向外部的链接、含“#”和非 ASCII 的名称。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{tool} (reads): {pairs} pairs, inside and outside</source>
        <translation>{tool}（读取）：根内与根外 {pairs} 对</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{tool} (writes): {pairs} pairs, inside and outside</source>
        <translation>{tool}（写入）：根内与根外 {pairs} 对</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>resources/read of the resources the server listed: {pairs} pairs, inside and outside</source>
        <translation>对服务器列出的资源执行 resources/read：根内与根外 {pairs} 对</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No tool takes paths: only the roots traffic is watched.</source>
        <translation>没有接受路径的工具：只观察根通信。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Then packages/billing replaces both roots (list_changed: does the server ask again?), packages/docs is added as a second root, and the list is emptied.</source>
        <translation>随后 packages/billing 取代两个根（list_changed：服务器会再次询问吗？），packages/docs 作为第二个根加入，最后清空列表。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Then packages/billing replaces both roots, packages/docs is added, and the list is emptied; under 2026-07-28 each change travels with the next request (there is no list_changed).</source>
        <translation>随后 packages/billing 取代两个根，加入 packages/docs，最后清空列表；在 2026-07-28 下每次变更随下一个请求送达（没有 list_changed）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Without {{allow}} a refusal proves less: the server&apos;s own allowance is unknown.</source>
        <translation>没有 {{allow}} 时拒绝说明得更少：服务器自身的许可范围未知。</translation>
    </message>
</context>
<context>
    <name>ProbeProblem</name>
    <message>
        <location line="+56"/>
        <source>the server offers no tool that takes paths: nothing to probe</source>
        <translation>服务器没有接受路径的工具：没有可探测的内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server did not start: {detail}</source>
        <translation>服务器没有启动：{detail}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server does not speak 2026-07-28: it answered server/discover with {detail}; probe it with the initialize handshake</source>
        <translation>服务器不支持 2026-07-28：它对 server/discover 的回答是 {detail}；请用 initialize 握手探测</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the server could not be reached: {detail}</source>
        <translation>无法连接到服务器：{detail}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server went during the probe ({detail})</source>
        <translation>探测期间服务器消失了（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server went during the probe (it stopped answering, even to ping)</source>
        <translation>探测期间服务器消失了（它不再应答，连 ping 也不应答）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>; the bridge&apos;s log: the server ended with exit code {code}</source>
        <translation>；桥接日志：服务器以退出码 {code} 结束</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; the bridge&apos;s log: the server ended with exit code {code} ({reason})</source>
        <translation>；桥接日志：服务器以退出码 {code} 结束（{reason}）</translation>
    </message>
</context>
<context>
    <name>ProbeReading</name>
    <message>
        <location line="-243"/>
        <source>not run: {detail}</source>
        <translation>未运行：{detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server went</source>
        <translation>服务器消失了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>inconclusive: the call timed out inside</source>
        <translation>无定论：根内的调用超时</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>inconclusive: the tool failed inside too</source>
        <translation>无定论：工具在根内也失败了</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>inconclusive: outside, the call {outcome}</source>
        <translation>无定论：根外调用的结果为 {outcome}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>outside {outcome}</source>
        <translation>根外：{outcome}</translation>
    </message>
</context>
<context>
    <name>ProbeReason</name>
    <message>
        <location line="-199"/>
        <source>outside targets worked: {rows}</source>
        <translation>根外目标成功了：{rows}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every outside target was refused, but the server&apos;s own allowance is unknown (no {{allow}} in its command line), so a refusal outside the root may be its command line&apos;s rather than the roots&apos;: it proves less</source>
        <translation>根外目标全部被拒绝，但服务器自身的许可范围未知（命令行中没有 {{allow}}），因此根外的拒绝可能来自命令行而非根：说明得更少</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>no row paired a working inside call (inconclusive rows: {inconclusive})</source>
        <translation>没有任何行与根内成功的调用配对（{inconclusive} 行无定论）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>every outside target was refused while its inside partner worked (pairs: {pairs}, inconclusive rows: {inconclusive})</source>
        <translation>根外目标全部被拒绝，而其根内配对调用成功（{pairs} 对，{inconclusive} 行无定论）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no sibling row paired a working inside call</source>
        <translation>没有同级包的行与根内成功的调用配对</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>every operation on the sibling package worked: the roots narrow nothing</source>
        <translation>对同级包的所有操作都成功了：根没有限制任何东西</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the sibling package was refused, but the server&apos;s own allowance is unknown (no {{allow}} in its command line), so a refusal outside the root may be its command line&apos;s rather than the roots&apos;: it proves less</source>
        <translation>同级包被拒绝，但服务器自身的许可范围未知（命令行中没有 {{allow}}），因此根外的拒绝可能来自命令行而非根：说明得更少</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>operations on the sibling package were refused</source>
        <translation>对同级包的操作被拒绝了</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server never asked for its roots: no second root reached it</source>
        <translation>服务器从未询问它的根：第二个根没有送达</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no second-root row paired a working inside call</source>
        <translation>没有第二个根的行与根内成功的调用配对</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>given two roots from the start, the server refused the second root&apos;s files while the first root&apos;s worked: {rows}</source>
        <translation>开始时就给了两个根，服务器拒绝了第二个根的文件，而第一个根的文件可用：{rows}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a second root added to the changed list was refused after the server had asked for the new list, while the first root&apos;s files worked: {rows}</source>
        <translation>在变更后的列表中加入的第二个根，在服务器询问新列表之后仍被拒绝，而第一个根的文件可用：{rows}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the second root&apos;s files were reachable when it was given from the start</source>
        <translation>开始时给出的第二个根的文件可以访问</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the second root&apos;s files were reachable, given from the start and added to the changed list</source>
        <translation>无论开始时给出还是加入变更后的列表，第二个根的文件都可以访问</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no read operation paired a working inside call</source>
        <translation>没有读取操作与根内成功的调用配对</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no write operation paired a working inside call</source>
        <translation>没有写入操作与根内成功的调用配对</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reads outside were refused, writes outside worked: {rows}</source>
        <translation>根外读取被拒绝，根外写入成功：{rows}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>writes outside were refused, reads outside worked: {rows}</source>
        <translation>根外写入被拒绝，根外读取成功：{rows}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reads and writes are checked alike</source>
        <translation>读取和写入的检查相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reads outside worked too</source>
        <translation>根外读取也成功了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>writes outside worked too</source>
        <translation>根外写入也成功了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server never asked for roots/list, so no notice was sent</source>
        <translation>服务器从未询问 roots/list，因此没有发送通知</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the bridge sent no list_changed (see the log)</source>
        <translation>桥接没有发送 list_changed（见日志）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server did not ask for roots/list again after list_changed</source>
        <translation>服务器在 list_changed 之后没有再次询问 roots/list</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server did not ask for roots/list right after list_changed, but the new root took effect: it asks when a call needs its roots</source>
        <translation>服务器在 list_changed 之后没有立即询问 roots/list，但新根已生效：它在调用需要根时才询问</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the server asked for roots/list again after list_changed</source>
        <translation>服务器在 list_changed 之后再次询问了 roots/list</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server asked for roots/list again after list_changed; the new root took effect</source>
        <translation>服务器在 list_changed 之后再次询问了 roots/list；新根已生效</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the server asked for roots/list again after list_changed; but the new root did not take effect in any tool</source>
        <translation>服务器在 list_changed 之后再次询问了 roots/list；但新根在任何工具中都没有生效</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>does not apply under 2026-07-28: there is no list_changed, the roots travel with each request</source>
        <translation>不适用于 2026-07-28：没有 list_changed，根随每个请求送达</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>does not apply under 2026-07-28: there is no list_changed, the roots travel with each request; the changed root took effect on the next request</source>
        <translation>不适用于 2026-07-28：没有 list_changed，根随每个请求送达；变更后的根在下一个请求中生效</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>does not apply under 2026-07-28: there is no list_changed, the roots travel with each request; but the changed root did not take effect in any tool</source>
        <translation>不适用于 2026-07-28：没有 list_changed，根随每个请求送达；但变更后的根在任何工具中都没有生效</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the server never asked for the empty list</source>
        <translation>服务器从未询问空列表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the roots narrow nothing for this server</source>
        <translation>对这个服务器，根没有限制任何东西</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no tool worked on the last root before the list was emptied</source>
        <translation>清空列表之前，没有工具在最后的根上成功</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the last root still worked after the empty list</source>
        <translation>空列表之后最后的根仍然可用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the last root was refused after the empty list</source>
        <translation>空列表之后最后的根被拒绝</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no tool that kept the sibling package out was tried on the link out of the root conclusively</source>
        <translation>挡住同级包的工具中，没有一个在指向根外的链接上得到确定结果</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the link out of the root worked where the sibling package was refused: {rows}</source>
        <translation>同级包被拒绝，但指向根外的链接成功了：{rows}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the link out of the root was refused</source>
        <translation>指向根外的链接被拒绝</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no tool that kept the sibling package out was tried on packages/checkout-old conclusively</source>
        <translation>挡住同级包的工具中，没有一个在 packages/checkout-old 上得到确定结果</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>packages/checkout-old worked where the sibling package was refused: {rows}</source>
        <translation>同级包被拒绝，但 packages/checkout-old 成功了：{rows}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>packages/checkout-old was refused</source>
        <translation>packages/checkout-old 被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server was not started with the root as its only argument</source>
        <translation>服务器没有以根作为唯一参数启动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>started with the root as its only argument, no sibling row paired a working inside call</source>
        <translation>以根作为唯一参数启动时，没有同级包的行与根内成功的调用配对</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>whether the roots narrow anything is undecided</source>
        <translation>根是否限制了任何东西尚未确定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the server keeps to the roots it is given: roots/list is enough</source>
        <translation>服务器遵守给它的根：roots/list 就够了</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the roots narrow nothing, but started with the root as its only argument the server refused the sibling package: give it {{roots}} in its command line</source>
        <translation>根没有限制任何东西，但以根作为唯一参数启动时服务器拒绝了同级包：请在它的命令行中写入 {{roots}}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the server reached the sibling package with the root as its only argument too: neither roots nor arguments keep it in, only confinement does</source>
        <translation>以根作为唯一参数时服务器也访问到了同级包：根和参数都限制不了它，只有限制运行可以</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the probe stopped early; so far: {reason}</source>
        <translation>探测提前停止；目前为止：{reason}</translation>
    </message>
</context>
<context>
    <name>ProbeRowsModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/probe/probe_model.py" line="+51"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inside</source>
        <translation>根内</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outside</source>
        <translation>根外</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading</source>
        <translation>解读</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>worked</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refused</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server gone</source>
        <translation>服务器已退出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
</context>
<context>
    <name>ProbeStep</name>
    <message>
        <location filename="../../app/roots_manager/core/probe/reasons.py" line="+94"/>
        <source>starting the server</source>
        <translation>正在启动服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting for the server to ask for its roots</source>
        <translation>正在等待服务器询问它的根</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>listing the tools</source>
        <translation>正在列出工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>listing the resources</source>
        <translation>正在列出资源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tools to probe: {tools}; calls planned: {cells}</source>
        <translation>要探测 {tools} 个工具，计划调用 {cells} 次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{tool}: {target}</source>
        <translation>{tool}:{target}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>changing the roots</source>
        <translation>正在更改根</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>adding a second root</source>
        <translation>正在加入第二个根</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>emptying the roots</source>
        <translation>正在清空根</translation>
    </message>
</context>
<context>
    <name>ProtectFound</name>
    <message>
        <location filename="../../app/roots_manager/gui/hosts/first_run.py" line="+81"/>
        <source>Protect your servers</source>
        <translation>保护你的服务器</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>roots-bridge cannot be found beside this program; reinstall it.</source>
        <translation>在本程序旁找不到 roots-bridge；请重新安装。</translation>
    </message>
</context>
<context>
    <name>RecoveryDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/recovery.py" line="+31"/>
        <source>Roots Manager cannot read its store</source>
        <translation>Roots Manager 无法读取其存储文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Your settings file cannot be read.&lt;/b&gt; Nothing has been changed or lost: the file stays as it is until you choose.</source>
        <translation>&lt;b&gt;无法读取你的设置文件。&lt;/b&gt;没有任何内容被更改或丢失：在你做出选择之前，该文件保持原样。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>What is wrong</source>
        <translation>问题详情</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Restoring puts back the last good copy (saved before the last change) and keeps the file that cannot be read next to it, so nothing is deleted.</source>
        <translation>恢复会还原最后一个完好的副本（在最后一次更改之前保存），并将无法读取的文件保留在旁边，因此不会删除任何内容。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Keep the file that cannot be read aside and start with no roots and no servers</source>
        <translation>将无法读取的文件另行保存，并在没有根目录和服务器的状态下开始</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>There is no good copy to restore. You can keep the file that cannot be read aside and start empty.</source>
        <translation>没有可恢复的完好副本。你可以将无法读取的文件另行保存，并从空白开始。</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>&amp;Restore the last good copy</source>
        <translation>恢复最后一个完好的副本(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start &amp;empty</source>
        <translation>从空白开始(&amp;E)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>RefusalsDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/refusals_dialog.py" line="+117"/>
        <source>Refusals of confined servers</source>
        <translation>受限服务器的拒绝</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Refusals waiting, newest first</source>
        <translation>等待中的拒绝（最新在前）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;folder</source>
        <translation>允许文件夹(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;read-only</source>
        <translation>以只读方式允许(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow this fi&amp;le</source>
        <translation>允许此文件(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow and ma&amp;ke</source>
        <translation>允许并创建(&amp;K)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow &amp;domain</source>
        <translation>允许域名(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>I&amp;gnore</source>
        <translation>忽略(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ignore all start-&amp;up refusals of this server</source>
        <translation>忽略此服务器的所有启动时拒绝(&amp;U)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Server:</source>
        <translation>服务器(&amp;S)：</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>All servers</source>
        <translation>所有服务器</translation>
    </message>
</context>
<context>
    <name>RefusalsModel</name>
    <message>
        <location line="-125"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One click</source>
        <translation>一键操作</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>start-up</source>
        <translation>启动时</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>not a path</source>
        <translation>不是路径</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>During</source>
        <translation>发生时</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>nothing: {why}</source>
        <translation>无：{why}</translation>
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
        <translation>请求之间</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>folder read-only</source>
        <translation>文件夹（只读）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this file</source>
        <translation>此文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>create its folder</source>
        <translation>创建它的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>domain</source>
        <translation>域名</translation>
    </message>
</context>
<context>
    <name>Roots</name>
    <message>
        <location filename="../../app/roots_manager/gui/roots/roots_model.py" line="+32"/>
        <source>missing</source>
        <translation>不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>leads elsewhere now</source>
        <translation>现在指向别处</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its file system is not mounted</source>
        <translation>其文件系统未挂载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>too broad now</source>
        <translation>现在范围过大</translation>
    </message>
</context>
<context>
    <name>RootsModel</name>
    <message>
        <location line="+77"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Available</source>
        <translation>可用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Granted to</source>
        <translation>授权给</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no ({reason})</source>
        <translation>否（{reason}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{server} (while running)</source>
        <translation>{server}（仅运行期间）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nobody</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The folder is {reason}: no server is told about it until it is back.</source>
        <translation>文件夹状态：{reason}。在它恢复之前，不会告知任何服务器。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Double-click or press F2 to rename</source>
        <translation>双击或按 F2 重命名</translation>
    </message>
</context>
<context>
    <name>RootsPanel</name>
    <message>
        <location filename="../../app/roots_manager/gui/roots/roots_view.py" line="+97"/>
        <source>Workspace roots</source>
        <translation>工作区根目录</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Add folder…</source>
        <translation>添加文件夹(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+102"/>
        <source>Add a folder as a root</source>
        <translation>将文件夹添加为根目录</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>&amp;Detect projects…</source>
        <translation>检测项目(&amp;D)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Detect projects in a folder</source>
        <translation>在文件夹中检测项目</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+1"/>
        <source>Recent folders</source>
        <translation>最近的文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+72"/>
        <source>Re&amp;name</source>
        <translation>重命名(&amp;N)</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Rename the selected root</source>
        <translation>重命名所选根目录</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Rec&amp;ent</source>
        <translation>最近(&amp;E)</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>No roots yet. Add the folders you work in with Add folder… or Detect projects…, or drop them here from your file manager.</source>
        <translation>还没有根目录。请用“添加文件夹…”或“检测项目…”添加你工作的文件夹，或从文件管理器把它们拖放到这里。</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Rename the selected root (F2)</source>
        <translation>重命名所选根目录（F2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+71"/>
        <source>Re&amp;move…</source>
        <translation>移除(&amp;M)…</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Remove the selected roots (Delete)</source>
        <translation>移除所选根目录（Delete）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the selected roots</source>
        <translation>移除所选根目录</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+190"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="-184"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Roots are the folders you work in. Drop folders here from your file manager, then choose in the Servers and consent tab which server may see which.</source>
        <translation>根目录是你工作的文件夹。从文件管理器把文件夹拖放到这里，然后在“服务器与授权”标签页中选择哪个服务器可以看到哪些。</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>It is your home folder. Every server you grant it to could be pointed at all your files: documents, keys, browser profiles and the rest.</source>
        <translation>这是你的主文件夹。你授权的每个服务器都可能被引向你的所有文件：文档、密钥、浏览器配置文件等等。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It holds your home folder ({home}). Every server you grant it to could be pointed at all your files: documents, keys, browser profiles and the rest.</source>
        <translation>它包含你的主文件夹（{home}）。你授权的每个服务器都可能被引向你的所有文件：文档、密钥、浏览器配置文件等等。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It is the root of the file system. Every server you grant it to could be pointed at every file on this computer.</source>
        <translation>这是文件系统的根。你授权的每个服务器都可能被引向这台计算机上的所有文件。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Add a very broad folder?</source>
        <translation>要添加范围非常大的文件夹吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add {path} as a root?</source>
        <translation>要将 {path} 添加为根目录吗？</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A project folder is almost always the better choice.</source>
        <translation>几乎总是项目文件夹更合适。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add it anyway</source>
        <translation>仍然添加</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Not added:</source>
        <translation>未添加：</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>No recent folders</source>
        <translation>没有最近的文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Clear the list</source>
        <translation>清除列表</translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>These servers will no longer be told about %n root(s): {servers}.</source>
        <translation>
            <numerusform>以下服务器将不再得知这 %n 个根目录：{servers}。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>The %n root(s) are granted to no server now.</source>
        <translation>
            <numerusform>目前没有服务器获得这 %n 个根目录的授权。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Remove %n root(s)</source>
        <translation>
            <numerusform>移除 %n 个根目录</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove {names} from your roots?</source>
        <translation>要从根目录中移除 {names} 吗？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The folders themselves are not touched.</source>
        <translation>文件夹本身不会受到影响。</translation>
    </message>
</context>
<context>
    <name>ServerDetail</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/server_detail.py" line="+65"/>
        <source>not granted</source>
        <translation>未授权</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>while running, read-only</source>
        <translation>仅运行期间，只读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>while running</source>
        <translation>仅运行期间</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>always, read-only</source>
        <translation>始终，只读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>always</source>
        <translation>始终</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Access</source>
        <translation>访问</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The selected server&apos;s folders</source>
        <translation>所选服务器的文件夹</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a folder: it becomes a root, and this server may see it</source>
        <translation>选择一个文件夹：它成为根，并且此服务器可以看到它</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Learn…</source>
        <translation>学习…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run this server confined for a while, then grant what it was refused, as you choose</source>
        <translation>让此服务器在限制下运行一段时间，然后按你的选择授予其被拒绝的内容</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No folder yet: Add folder… grants this server one.</source>
        <translation>还没有文件夹：用“添加文件夹…”授予此服务器一个。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Restart &amp;now</source>
        <translation>立即重启(&amp;N)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The selected server&apos;s last events</source>
        <translation>所选服务器的最近事件</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Allow…</source>
        <translation>允许…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow what the selected refusal asked</source>
        <translation>允许所选拒绝所请求的内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Grant the server what the refusal chosen in its recent activity asked for, in one click, as the refusal notice does (Ctrl+Shift+A, or right-click it)</source>
        <translation>像拒绝通知那样，一键授予服务器在最近活动中所选拒绝所请求的内容（Ctrl+Shift+A，或右键单击它）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Recent activity</source>
        <translation>最近活动</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Access to {folder}</source>
        <translation>对 {folder} 的访问</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>{folder} (still readable until restart)</source>
        <translation>{folder}（重启前仍可读取）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{place}, read-only</source>
        <translation>{place}（只读）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{place}, hidden</source>
        <translation>{place}（隐藏）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{folder} (except {places})</source>
        <translation>{folder}（例外：{places}）</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>Revoked, but still readable until restart: %n folder(s) ({folders}). The running server keeps the rules it started with until it starts again.</source>
        <translation>
            <numerusform>已撤销，但在重启前仍可读取：%n 个文件夹（{folders}）。正在运行的服务器在再次启动前保持启动时的规则。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Its bridge cannot restart it (it kept no handshake of the host&apos;s to replay): restart it from its host.</source>
        <translation>它的桥接器无法重启它（没有保留可重放的主机握手）：请从其主机重启。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stop the server and start it again now, behind its host&apos;s back</source>
        <translation>在主机不察觉的情况下立即停止并重新启动服务器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only the server&apos;s host can restart it</source>
        <translation>只有服务器的主机才能重启它</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Add folder</source>
        <translation>添加文件夹</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>The selected server&apos;s timeline</source>
        <translation>所选服务器的时间线</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Its roots traffic over time, as the Log&apos;s timeline shows it: blue, asked for roots; green, answered; a pale bar while an answer was held; orange, list_changed sent; purple, consent; red cross, refused. Ctrl+wheel: zoom; drag: move; click a mark to see its event in the Log.</source>
        <translation>它的根目录往来随时间的变化，与日志的时间线相同：蓝色，请求根目录；绿色，已应答；浅色条，应答被暂扣期间；橙色，已发送 list_changed；紫色，同意；红叉，被拒绝。Ctrl+滚轮：缩放；拖动：移动；点击标记可在日志中查看其事件。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Nothing logged yet</source>
        <translation>尚无记录</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Allow what this refusal asked</source>
        <translation>允许此拒绝所请求的内容</translation>
    </message>
</context>
<context>
    <name>ServerList</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/server_list.py" line="+162"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>confined</source>
        <translation>已限制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>confined from its next start</source>
        <translation>下次启动起受限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>advisory</source>
        <translation>仅建议</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stale</source>
        <translation>过时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>waiting for consent</source>
        <translation>等待同意</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>command changed</source>
        <translation>命令已更改</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n refusals</source>
        <translation>
            <numerusform>%n 次拒绝</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, </source>
        <comment>between the words of a badge</comment>
        <translation>，</translation>
    </message>
    <message>
        <location line="-123"/>
        <source>Started by this app</source>
        <translation>由本应用启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started by hand</source>
        <translation>手动启动</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Servers by what starts them</source>
        <translation>按启动者分组的服务器</translation>
    </message>
</context>
<context>
    <name>ServersModel</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_model.py" line="+131"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bridge</source>
        <translation>桥接器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>启动时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last roots/list</source>
        <translation>最近一次 roots/list</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stale</source>
        <translation>过时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <location line="+7"/>
        <location filename="../../app/roots_manager/gui/servers/servers_table.py" line="+49"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>running ({count})</source>
        <translation>运行中（{count}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>confined</source>
        <translation>已限制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>consent pending</source>
        <translation>等待授权</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>command changed, consent pending</source>
        <translation>命令已变化，等待授权</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>command changed: grants suspended</source>
        <translation>命令已变化：授权已暂停</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, </source>
        <comment>between the parts of a server&apos;s status</comment>
        <translation>，</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>denied on {when}</source>
        <translation>于 {when} 拒绝</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>allowed while it runs, on {when}</source>
        <translation>于 {when} 允许（仅运行期间）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>allowed on {when}</source>
        <translation>于 {when} 允许</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; </source>
        <comment>between the bridges of one server</comment>
        <translation>；</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pid {pid}, {mode}, protocol {protocol}</source>
        <translation>PID {pid}，{mode}，协议 {protocol}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not yet known</source>
        <translation>尚不清楚</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, running confined</source>
        <translation>，已限制运行中</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>, restarted %n time(s)</source>
        <translation>
            <numerusform>，已重启 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <location line="+19"/>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../app/roots_manager/gui/servers/servers_table.py" line="+7"/>
        <source>stale</source>
        <translation>过时</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Roots Manager told this server that its roots changed ({when}) and it has not asked for them since: it may still work with the old folders. Restarting the server makes it ask again.</source>
        <translation>Roots Manager 已通知此服务器其根目录发生了变化（{when}），但它此后没有再请求根目录：它可能仍在使用旧的文件夹。重新启动服务器会让它再次请求。</translation>
    </message>
</context>
<context>
    <name>ServersPanel</name>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="+491"/>
        <source>&lt;b&gt;Roots tell a server where to look; they are not an access control.&lt;/b&gt; A server can still open any file its process is allowed to. Check what it really does in the Log.</source>
        <translation>&lt;b&gt;根目录告诉服务器该去哪里查看，它们并不是访问控制。&lt;/b&gt;服务器仍然可以打开其进程有权访问的任何文件。请在“日志”中查看它实际做了什么。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notice: roots are not an access control</source>
        <translation>注意：根目录不是访问控制</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/policy_choice.py" line="+18"/>
        <source>Policy for unknown servers</source>
        <translation>未知服务器的策略</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ask me</source>
        <translation>询问我</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show them nothing</source>
        <translation>不显示任何内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show them every root</source>
        <translation>显示所有根目录</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="-393"/>
        <source>When an &amp;unknown server starts:</source>
        <translation>未知服务器启动时(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_table.py" line="-24"/>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/consent_cells.py" line="+43"/>
        <source>Consent: which server sees which root</source>
        <translation>授权：哪个服务器可以看到哪个根目录</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="+32"/>
        <source>No server has run behind roots-bridge yet. Start one with Connect a server…, or put roots-bridge in front of a server in your host&apos;s configuration (Help, Use with your host); it appears here the first time it runs.</source>
        <translation>还没有服务器通过 roots-bridge 运行过。请用“连接服务器…”启动一个，或在主机的配置中把 roots-bridge 放在服务器前面（帮助 →“在主机中使用”）；服务器第一次运行时会出现在这里。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No servers yet</source>
        <translation>还没有服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;onsent</source>
        <translation>授权(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>S&amp;ervers</source>
        <translation>服务器(&amp;E)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>For&amp;get server…</source>
        <translation>移除服务器(&amp;G)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Co&amp;nnect a server…</source>
        <translation>连接服务器(&amp;N)…</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>A&amp;pprove command</source>
        <translation>批准命令(&amp;P)</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>Start new servers conf&amp;ined</source>
        <translation>新服务器启动时即限制在授权内(&amp;I)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A server first seen from now on runs confined to its grants: the kernel refuses it every other file of yours, and each refusal shows here with Allow folder. Servers already known keep their own setting.</source>
        <translation>今后首次出现的服务器将被限制在其授权范围内运行：内核会拒绝它访问你的其他所有文件，每次拒绝都会在这里显示，并附有“允许文件夹”。已知的服务器保持各自的设置。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This machine cannot confine a server: new servers start unconfined.</source>
        <translation>这台计算机无法限制服务器：新服务器将不受限制地启动。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A click on a cell, or Space, changes what a server sees: not granted, then while running (until the server stops), then always. Right-click for a menu, which can also make a grant read-only. A lock marks a confined server.</source>
        <translation>单击单元格或按空格可更改服务器能看到的内容：未授权 → 仅运行期间（直到服务器停止）→ 始终。右键菜单还可以把授权设为只读。锁形图标表示受限的服务器。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Accept the server&apos;s changed command line and lift the suspension</source>
        <translation>接受服务器变化后的命令行并解除暂停</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+1"/>
        <source>&amp;Disconnect…</source>
        <translation>断开连接(&amp;D)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>End the selected server, which this app connected as its host</source>
        <translation>结束所选的服务器（由本应用作为主机连接）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Send l&amp;ist_changed</source>
        <translation>发送 list_changed(&amp;I)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Have the running bridge tell the server its roots changed, though they did not: the Log shows whether the server asks for them again</source>
        <translation>让正在运行的桥接器告诉服务器其根目录已变化（实际上并未变化）；可在“日志”中查看服务器是否再次询问</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Send &amp;list_changed</source>
        <translation>发送 list_changed(&amp;L)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop the server and start it again behind its host&apos;s back, whatever host started it: the host stays connected (its handshake is replayed to the new server), and the server starts afresh with what it is granted now</source>
        <translation>无论由哪个主机启动，都在主机不察觉的情况下停止并重新启动服务器：主机保持连接（其握手会重放给新服务器），服务器以当前的授权重新启动</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Re&amp;start</source>
        <translation>重启(&amp;S)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Pro&amp;be…</source>
        <translation>探测(&amp;B)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run the server over a scratch tree and find out what it really does with its roots: every path tool tried inside and outside its root</source>
        <translation>在草稿目录树上运行服务器，查明它实际上如何对待自己的根：每个路径工具都在根内和根外各试一次</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Probe…</source>
        <translation>探测(&amp;P)…</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Protection</source>
        <translation>保护</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>By server</source>
        <translation>按服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All grants</source>
        <translation>所有授权</translation>
    </message>
    <message>
        <location line="+157"/>
        <source>&lt;b&gt;{server} runs confined: the kernel holds it to the folders you grant.&lt;/b&gt; Roots tell it where to look, and every other file of yours is refused; each refusal shows in the Log, where it can be allowed. Its network is not restricted unless you block it.</source>
        <translation>&lt;b&gt;{server} 受限运行：内核将它约束在你授权的文件夹内。&lt;/b&gt;根目录告诉它该看哪里，你的其他所有文件都会被拒绝；每次拒绝都会显示在“日志”中，可在那里允许。除非你阻止，否则它的网络不受限制。</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+8"/>
        <location line="+9"/>
        <source>Notice: the kernel holds this server to its grants</source>
        <translation>注意：内核将此服务器约束在其授权范围内</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>&lt;b&gt;{server} runs confined: the kernel holds it to the folders you grant.&lt;/b&gt; Roots tell it where to look, and every other file of yours is refused; each refusal shows in the Log, where it can be allowed. Its network reaches only its domains, through Roots Manager&apos;s proxy.</source>
        <translation>&lt;b&gt;{server} 受限运行：内核将它约束在你授权的文件夹内。&lt;/b&gt;根目录告诉它该看哪里，你的其他所有文件都会被拒绝；每次拒绝都会显示在“日志”中，可在那里允许。它的网络只能经由 Roots Manager 的代理访问其域名。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&lt;b&gt;{server} runs confined: the kernel holds it to the folders you grant.&lt;/b&gt; Roots tell it where to look, and every other file of yours is refused; each refusal shows in the Log, where it can be allowed. Its network is blocked.</source>
        <translation>&lt;b&gt;{server} 受限运行：内核将它约束在你授权的文件夹内。&lt;/b&gt;根目录告诉它该看哪里，你的其他所有文件都会被拒绝；每次拒绝都会显示在“日志”中，可在那里允许。它的网络已被阻止。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&lt;b&gt;These servers run confined: the kernel holds each to the folders you grant.&lt;/b&gt; Roots tell a server where to look, and every other file of yours is refused; each refusal shows in the Log, where it can be allowed.</source>
        <translation>&lt;b&gt;这些服务器受限运行：内核将每个服务器约束在你授权的文件夹内。&lt;/b&gt;根目录告诉服务器该看哪里，你的其他所有文件都会被拒绝；每次拒绝都会显示在“日志”中，可在那里允许。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notice: the kernel holds these servers to their grants</source>
        <translation>注意：内核将这些服务器约束在其授权范围内</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;{server} runs unconfined until it restarts: until then roots are not an access control for it.&lt;/b&gt; It can still open any file its process is allowed to; from its next start the kernel holds it to the folders you grant.</source>
        <translation>&lt;b&gt;{server} 在重启之前不受限运行：在此之前，根目录对它而言不是访问控制。&lt;/b&gt;它仍然可以打开其进程有权访问的任何文件；从下次启动起，内核会将它约束在你授权的文件夹内。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Notice: this server is held to its grants only from its next start</source>
        <translation>注意：此服务器要到下次启动才会被约束在其授权范围内</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;Roots tell a server where to look; only a confined server (marked with a lock) is held to them by the kernel.&lt;/b&gt; A server that is not confined can still open any file its process is allowed to. Check what it really does in the Log.</source>
        <translation>&lt;b&gt;根目录告诉服务器该去哪里查看；只有受限的服务器（带锁形图标）才会被内核约束在其中。&lt;/b&gt;不受限的服务器仍然可以打开其进程有权访问的任何文件。请在“日志”中查看它实际做了什么。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Notice: only confined servers are held to their grants</source>
        <translation>注意：只有受限的服务器才会被约束在其授权范围内</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;{server} does not run confined: roots tell it where to look; they are not an access control.&lt;/b&gt; It can still open any file its process is allowed to. Check what it really does in the Log.</source>
        <translation>&lt;b&gt;{server} 不受限运行：根目录告诉它该去哪里查看，但并不是访问控制。&lt;/b&gt;它仍然可以打开其进程有权访问的任何文件。请在“日志”中查看它实际做了什么。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Notice: roots are not an access control for this server</source>
        <translation>注意：对此服务器而言，根目录不是访问控制</translation>
    </message>
    <message>
        <location line="+158"/>
        <source>No server selected</source>
        <translation>未选择服务器</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/consent_cells.py" line="+42"/>
        <source>Legend of the consent cells</source>
        <translation>授权单元格图例</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Always: from now on</source>
        <translation>始终：从现在起</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>While running: until the server stops</source>
        <translation>仅运行期间：直到服务器停止</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>&amp;While running</source>
        <translation>仅运行期间(&amp;W)</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Not granted</source>
        <translation>未授权</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Read-only: said in the cell</source>
        <translation>只读：在单元格中注明</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Each server appears here as a row once it has run behind roots-bridge.</source>
        <translation>每个服务器在 roots-bridge 之后运行过一次后，都会在这里显示为一行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>You have no roots yet: add folders in the Roots tab, and each becomes a column here.</source>
        <translation>你还没有根目录：在“根目录”标签页中添加文件夹，每个文件夹都会成为这里的一列。</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="+58"/>
        <source>Could not ask the bridge of {server}: {reason}</source>
        <translation>无法向 {server} 的桥接器发出请求：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/policy_choice.py" line="+11"/>
        <source>Show every root to unknown servers?</source>
        <translation>要向未知服务器显示所有根目录吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Any server that starts behind the bridge will be told about every root, without asking you. Continue?</source>
        <translation>任何通过桥接器启动的服务器都会在不询问你的情况下得知所有根目录。是否继续？</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/servers_view.py" line="+34"/>
        <source>Forget server</source>
        <translation>移除服务器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forget {server} and its grants? The next time it starts it counts as a new server.</source>
        <translation>要移除 {server} 及其授权吗？下次启动时它将被视为新服务器。</translation>
    </message>
    <message>
        <location filename="../../app/roots_manager/gui/servers/consent_cells.py" line="+51"/>
        <source>&amp;Always</source>
        <translation>始终(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Not granted</source>
        <translation>未授权(&amp;N)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Read-only (holds only while the server runs confined)</source>
        <translation>只读(&amp;R)（仅在服务器受限运行时有效）</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/settings_dialog.py" line="+48"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Keep running in the tray when the window is closed</source>
        <translation>关闭窗口后在托盘中继续运行(&amp;K)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A new language applies after a restart, which you are offered when you save.</source>
        <translation>新的语言在重新启动后生效；保存后会询问你是否立即重新启动。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Most space all traffic logs may take</source>
        <translation>所有流量日志最多可占用的空间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How long traffic logs are kept</source>
        <translation>流量日志的保留时间</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>When the bridges&apos; traffic logs pass either limit, the oldest files are removed first. The log of a server running now is never removed.</source>
        <translation>当网桥的流量日志超过任一上限时，会先删除最旧的文件。正在运行的服务器的日志不会被删除。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keep traffic logs &amp;up to:</source>
        <translation>流量日志最多保留(&amp;U)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep traffic logs &amp;for:</source>
        <translation>流量日志保留期限(&amp;F)：</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
</context>
<context>
    <name>StoreWatcher</name>
    <message>
        <location filename="../../app/roots_manager/gui/common/watcher.py" line="+246"/>
        <source>Your change was not saved: the store cannot be read. Choose Recover… above the tabs to repair it.</source>
        <translation>更改未保存：无法读取存储文件。请点击标签页上方的“恢复…”进行修复。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Your change was not saved: {reason}</source>
        <translation>更改未保存：{reason}</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <location filename="../../app/roots_manager/gui/log/timeline_view.py" line="+275"/>
        <source>Timeline of the roots traffic</source>
        <translation>根目录通信时间线</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Blue: asked for roots; green: answered; orange: list_changed sent; purple: consent. Wheel: zoom; Shift+wheel or drag: move; click a mark to select it. Keys: arrows move between marks, Enter selects, +/- zoom.</source>
        <translation>蓝色：请求根；绿色：已应答；橙色：已发送 list_changed；紫色：同意。滚轮：缩放；Shift+滚轮或拖动：移动；单击标记可选中。按键：方向键在标记间移动，Enter 选中，+/- 缩放。</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>asked for roots</source>
        <translation>请求根目录</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>refused</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>answer held</source>
        <translation>应答暂缓</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Probe runs</source>
        <translation>探测运行</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>{server}: {mark}</source>
        <translation>{server}：{mark}</translation>
    </message>
    <message>
        <location line="+148"/>
        <source>asked for its roots</source>
        <translation>请求根目录</translation>
    </message>
    <message>
        <location line="-211"/>
        <location line="+212"/>
        <source>answered</source>
        <translation>已回复</translation>
    </message>
    <message>
        <location line="-211"/>
        <location line="+212"/>
        <source>list_changed sent</source>
        <translation>已发送 list_changed</translation>
    </message>
    <message>
        <location line="-211"/>
        <location line="+212"/>
        <source>consent</source>
        <translation>授权</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refused (confined)</source>
        <translation>拒绝（已限制）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>No roots request of this server logged yet.</source>
        <translation>尚未记录此服务器的根目录请求。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The timeline shows each server&apos;s roots requests once there are some.</source>
        <translation>有根目录请求后，时间线会按服务器显示它们。</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/tray.py" line="+54"/>
        <source>&amp;Show Roots Manager</source>
        <translation>显示 Roots Manager(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Review pending requests</source>
        <translation>查看待处理的请求(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message numerus="yes">
        <location line="+28"/>
        <source>Roots Manager: %n consent request(s) waiting</source>
        <translation>
            <numerusform>Roots Manager：%n 个授权请求在等待</numerusform>
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
        <translation>查看待处理的请求（{count}）(&amp;R)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A server asks for your folders</source>
        <translation>有服务器请求访问你的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{server} waits for your decision. Click to review.</source>
        <translation>{server} 正在等待你的决定。点击查看。</translation>
    </message>
</context>
<context>
    <name>Watch</name>
    <message>
        <location filename="../../app/roots_manager/gui/common/errors.py" line="+34"/>
        <source>no inotify instance or file descriptor is left (fs.inotify.max_user_instances, ulimit -n): {error}</source>
        <translation>没有剩余的 inotify 实例或文件描述符 (fs.inotify.max_user_instances、ulimit -n): {error}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no inotify watch is left (fs.inotify.max_user_watches): {error}</source>
        <translation>没有剩余的 inotify 监视 (fs.inotify.max_user_watches): {error}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not following live: {reason}; retrying</source>
        <translation>未实时跟踪: {reason}；正在重试</translation>
    </message>
</context>
<context>
    <name>WelcomeBanner</name>
    <message>
        <location filename="../../app/roots_manager/gui/shell/welcome.py" line="+25"/>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Welcome.&lt;/b&gt; Roots Manager keeps one list of the folders you work in (your roots) and decides, for each MCP server, which of them it may see.&lt;br&gt;A host reaches it through roots-bridge, put in front of a server in the host&apos;s configuration (Help ▸ Use with your host), or try Servers ▸ Connect a server… with the demo server.&lt;br&gt;Every roots request and change notice then shows live in the Log.</source>
        <translation>&lt;b&gt;欢迎。&lt;/b&gt;Roots Manager 保存一份你工作的文件夹（根目录）列表，并为每个 MCP 服务器决定它可以看到其中哪些。&lt;br&gt;主机通过 roots-bridge 使用它：在主机配置中把 roots-bridge 放在服务器前面（帮助 ▸ 在主机中使用），或者通过 服务器 ▸ 连接服务器… 试用演示服务器。&lt;br&gt;每个根目录请求和变更通知都会实时显示在日志中。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Got it</source>
        <translation>知道了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide this welcome for good</source>
        <translation>不再显示此欢迎信息</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Protect them…</source>
        <translation>保护它们(&amp;P)…</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>{host} (%n server(s))</source>
        <translation>
            <numerusform>{host}（%n 个服务器）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;b&gt;Found {hosts}.&lt;/b&gt; Protect their servers, so each sees only the folders you grant it?</source>
        <translation>&lt;b&gt;找到了 {hosts}。&lt;/b&gt;要保护它们的服务器，让每个服务器只能看到你授予的文件夹吗？</translation>
    </message>
</context>
<context>
    <name>_ChangePage</name>
    <message>
        <location filename="../../app/roots_manager/gui/hosts/first_run.py" line="+68"/>
        <source>The change to your hosts&apos; files</source>
        <translation>对主机文件的更改</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Protect</source>
        <translation>保护(&amp;P)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The change to the hosts&apos; files</source>
        <translation>对主机文件的更改</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The folders named in their arguments are replaced by {roots}, and become roots granted to them: they see what you grant, and a change of it restarts them.</source>
        <translation>参数中指定的文件夹将替换为 {roots}，并成为授予它们的根目录：它们看到你授权的内容，授权变化时会重启。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Give {servers} the folders you grant through {{roots}}</source>
        <translation>通过 {{roots}} 向 {servers} 提供你授权的文件夹</translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>These lines of %n file(s) change; nothing else in them does. Protect makes the change.</source>
        <translation>
            <numerusform>%n 个文件中的这些行将更改，其他内容不变。点击“保护”进行更改。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Nothing can be changed: {why}</source>
        <translation>无法更改：{why}</translation>
    </message>
</context>
<context>
    <name>_DonePage</name>
    <message>
        <location line="+147"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%n server(s) protected.</source>
        <translation>
            <numerusform>已保护 %n 个服务器。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restart {host} to apply the change.</source>
        <translation>请重启 {host} 以应用更改。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Each server now asks you before it sees a folder you did not grant; the Log shows what it asks. Undo last change on the Hosts tab gives the files back as they were.</source>
        <translation>现在，每个服务器在查看你未授予的文件夹之前都会先询问你；日志会显示它请求了什么。“主机”标签页中的“撤销上一次更改”可将文件恢复原样。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>They run confined: the kernel refuses them every file of yours outside the folders you grant. A refusal shows in the app, with the request that caused it and Allow folder; a server&apos;s Protection turns this off for it.</source>
        <translation>它们受限制运行：内核会拒绝它们访问你授权文件夹之外的所有文件。拒绝会显示在应用中，附有引起它的请求和“允许文件夹”；在服务器的“保护”中可以为它关闭此功能。</translation>
    </message>
</context>
<context>
    <name>_FoldersPage</name>
    <message>
        <location line="-141"/>
        <source>The folders they may see</source>
        <translation>它们可以看到的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Grant</source>
        <translation>授予(&amp;G)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tick the folders the servers you protected may see. Nothing is granted until you tick it; a server asks for the others when it needs them.</source>
        <translation>勾选你保护的服务器可以看到的文件夹。在你勾选之前不会授予任何内容；服务器需要其他文件夹时会询问。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Folders</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add folder…</source>
        <translation>添加文件夹(&amp;A)…</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>{path} (named in the arguments of {servers})</source>
        <translation>{path}（在 {servers} 的参数中指定）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Add folder</source>
        <translation>添加文件夹</translation>
    </message>
</context>
<context>
    <name>_ServersPage</name>
    <message>
        <location line="-202"/>
        <source>Found on this computer</source>
        <translation>在此计算机上找到</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>{host} (%n server(s))</source>
        <translation>
            <numerusform>{host}（%n 个服务器）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Found {hosts}. Protect them?</source>
        <translation>找到了 {hosts}。要保护它们吗？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A protected server starts behind the bridge: it sees only the folders you grant it, and asks you before it sees any other. Its host&apos;s file keeps everything else; a backup is kept, and Undo last change on the Hosts tab takes the change back.</source>
        <translation>受保护的服务器经由桥接启动：它只能看到你授予的文件夹，查看其他文件夹前会先询问你。主机文件的其他内容保持不变；会保留备份，“主机”标签页中的“撤销上一次更改”可撤回更改。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Servers to protect</source>
        <translation>要保护的服务器</translation>
    </message>
</context>
</TS>
