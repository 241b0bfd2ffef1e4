"""Host files as people and hosts write them: comments, odd spacing, remote servers, extra keys."""

from __future__ import annotations

CLAUDE_DESKTOP = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem"
      ]
    },
    "web": {
      "url": "https://example.invalid/mcp"
    }
  },
  "globalShortcut": "Ctrl+Space"
}
"""

CLAUDE_CODE = """{
  "numStartups": 12,
  "mcpServers": {
    "fs": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {}
    },
    "web": {"type": "http", "url": "https://example.invalid/mcp"}
  },
  "projects": {
    "/work/app": {
      "allowedTools": [],
      "mcpServers": {
        "db": {"type": "stdio", "command": "uvx", "args": ["mcp-server-sqlite"]}
      }
    }
  }
}
"""

VSCODE = """{
\t// Servers for every workspace
\t"servers": {
\t\t"fs": {
\t\t\t"type": "stdio",
\t\t\t"command": "npx", /* the runner */
\t\t\t"args": ["-y", "@modelcontextprotocol/server-filesystem"],
\t\t},
\t\t"web": {"type": "http", "url": "https://example.invalid/mcp"},
\t},
\t"inputs": [],
}
"""

CURSOR = """{
  "mcpServers": {
    "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"] },
    "web": { "url": "https://example.invalid/sse" }
  }
}
"""

WINDSURF = """{
    "mcpServers": {
        "fs": {
            "command": "npx",
            "args": [
                "-y",
                "@modelcontextprotocol/server-filesystem"
            ],
            "disabled": false
        },
        "web": {
            "serverUrl": "https://example.invalid/mcp"
        }
    }
}
"""

CLINE = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "disabled": false,
      "autoApprove": []
    },
    "web": {"url": "https://example.invalid/sse", "disabled": false}
  }
}
"""

GEMINI = """{
  "theme": "Default",
  // gemini-cli strips comments from its settings
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "cwd": "./",
      "timeout": 30000
    },
    "web": {"httpUrl": "https://example.invalid/mcp"}
  }
}
"""

CODEX = """# Codex settings
model = "o3"  # the default model

[mcp_servers.fs]
command = "npx"  # the runner
args = ["-y", "@modelcontextprotocol/server-filesystem"]

[mcp_servers.fs.env]
LOG = "1"

[mcp_servers.web]
url = "https://example.invalid/mcp"

[tui]
notifications = true
"""

ZED = """// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "fs": {
      "source": "custom",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {}
    },
    "old": {
      "command": {
        "path": "uvx",
        "args": ["mcp-server-git"],
        "env": {}
      },
      "settings": {}
    },
    "ext": {"source": "extension", "settings": {}},
    "web": {"url": "https://example.invalid/mcp"},
  },
  "vim_mode": true
}
"""

GOOSE = """# Goose configuration
GOOSE_PROVIDER: openai  # the provider
extensions:
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  fs:
    args:
    - -y
    - '@modelcontextprotocol/server-filesystem'
    bundled: null
    cmd: npx
    description: null
    enabled: true
    env_keys: []
    envs: {}
    name: fs
    timeout: 300
    type: stdio
  web:
    enabled: true
    name: web
    type: sse
    uri: https://example.invalid/sse
GOOSE_MODEL: gpt-4o
"""

SAMPLES = {
    "claude-desktop": CLAUDE_DESKTOP,
    "claude-code": CLAUDE_CODE,
    "vscode": VSCODE,
    "cursor": CURSOR,
    "windsurf": WINDSURF,
    "cline": CLINE,
    "gemini-cli": GEMINI,
    "codex": CODEX,
    "zed": ZED,
    "goose": GOOSE,
}
"""A file of each host, with a stdio server ``fs`` and a remote server ``web``."""

BROKEN = {
    "json": ('{\n  "mcpServers": {\n    "fs": {"command": "npx",}\n    "x": 1\n  }\n}\n', 4),
    "toml": ('[mcp_servers.fs]\ncommand = "npx"\nargs = ["-y"]\nenv = {A = }\n', 4),
    "yaml": ("extensions:\n  fs:\n    cmd: npx\n   args: [\n", 4),
}
"""A file with a syntax error for each format, and the line a reader should name."""
