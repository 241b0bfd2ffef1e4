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

# The hosts below were added from their own documentation; each sample follows the example there
# (the URL is beside it), with the filesystem server as ``fs`` and the remote example as ``web``.

QWEN_CODE = """{
  // Qwen Code reads its settings with comments, as Gemini CLI does
  "general": {
    "vimMode": false
  },
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "cwd": "./mcp-servers/python",
      "env": {
        "DATABASE_URL": "$DB_CONNECTION_STRING",
        "API_KEY": "${EXTERNAL_API_KEY}"
      },
      "timeout": 15000
    },
    "web": {
      "httpUrl": "https://example.invalid/mcp",
      "headers": {
        "Authorization": "Bearer your-api-token"
      },
      "timeout": 5000
    }
  },
  "mcp": {
    "allowed": ["fs", "web"]
  }
}
"""
"""https://qwenlm.github.io/qwen-code-docs/en/users/features/mcp/ (docs/users/features/mcp.md)"""

OPENCODE = """{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "fs": {
      "type": "local",
      // Or ["bun", "x", "my-mcp-command"]
      "command": ["npx", "-y", "@modelcontextprotocol/server-filesystem"],
      "enabled": true,
      "environment": {
        "MY_ENV_VAR": "my_env_var_value",
      },
    },
    "web": {
      "type": "remote",
      "url": "https://example.invalid/mcp",
      "enabled": true,
      "headers": {
        "Authorization": "Bearer MY_API_KEY",
      },
    },
    // a server of the organisation's remote config, turned on here
    "jira": {
      "enabled": true,
    },
  },
}
"""
"""https://opencode.ai/docs/mcp-servers/ (packages/web/src/content/docs/mcp-servers.mdx)"""

FAST_AGENT = """default_model: sonnet

logger:
  type: file
  level: error

mcp:
  servers:
    # name used in agent servers array
    fs:
      # command to run
      command: "npx"
      # list of arguments for the command
      args: ["-y", "@modelcontextprotocol/server-filesystem"]
      # key/value pairs of environment variables
      env:
        BRAVE_API_KEY: your_key
        KEY: value
    web:
      transport: "http"
      # url to connect
      url: "https://example.invalid/mcp"
      # request headers for connection
      headers:
        Authorization: "Bearer <secret>"
    fetch:
      target: "uvx mcp-server-fetch"
"""
"""https://fast-agent.ai/mcp/ (and src/fast_agent/config.py, where the servers are mcp.servers)"""

ROO_CODE = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "cwd": "/path/to/project/root",
      "env": {
        "API_KEY": "your_api_key"
      },
      "alwaysAllow": ["read_file"],
      "disabled": false
    },
    "web": {
      "type": "streamable-http",
      "url": "https://example.invalid/mcp",
      "headers": {
        "X-API-Key": "your-api-key"
      },
      "alwaysAllow": [],
      "disabled": false
    }
  }
}
"""
"""https://docs.roocode.com/features/mcp/using-mcp-in-roo (Roo reads it with JSON.parse: no
comments)"""

CONTINUE = """name: Local Assistant
version: 1.0.0
schema: v1
models:
  - name: Llama 3.1 8B
    provider: ollama
    model: llama3.1:8b
# MCP servers are used in agent mode only
mcpServers:
  - name: fs
    type: stdio
    command: npx
    args:
      - "-y"
      - "@modelcontextprotocol/server-filesystem"
    env:
      ROOT: ${{ secrets.ROOT }}
  - name: web
    type: streamable-http
    url: https://example.invalid/mcp
  - uses: anthropic/memory-mcp
"""
"""https://docs.continue.dev/customize/deep-dives/mcp (a config.yaml and a block file in
.continue/mcpServers/ have this shape)"""

LM_STUDIO = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"]
    },
    "web": {
      "url": "https://example.invalid/mcp",
      "headers": {
        "Authorization": "Bearer <YOUR_HF_TOKEN>"
      }
    }
  }
}
"""
"""https://lmstudio.ai/docs/app/mcp ("LM Studio currently follows Cursor's mcp.json notation")"""

KIRO = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {
        "ENV_VAR1": "hard-coded-variable",
        "ENV_VAR2": "${EXPANDED_VARIABLE}"
      },
      "disabled": false,
      "autoApprove": ["tool_name1", "tool_name2"],
      "disabledTools": ["tool_name3"]
    },
    "web": {
      "url": "https://example.invalid/mcp",
      "headers": {
        "HEADER1": "value1",
        "HEADER2": "value2"
      },
      "disabled": false,
      "autoApprove": ["tool_name1", "tool_name2"],
      "disabledTools": ["tool_name3"]
    }
  }
}
"""
"""https://kiro.dev/docs/mcp/configuration"""

TRAE = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {
        "GITHUB_PERSONAL_ACCESS_TOKEN": "<YOUR_TOKEN>"
      },
      "fromGalleryId": "modelcontextprotocol.servers_filesystem"
    },
    "web": {
      "url": "https://example.invalid/mcp",
      "headers": {
        "Authorization": "Bearer xxxx"
      }
    }
  }
}
"""
"""https://www.volcengine.com/docs/86677/2137601 and /2137600 (TRAE's guide: "Add MCP Server",
the fields of a stdio and a remote server, and the project's .trae/mcp.json); fromGalleryId is
what its marketplace adds to an entry"""

AMP = """{
  "amp.notifications.enabled": true,
  "amp.mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {}
    },
    "web": {
      "url": "https://example.invalid/mcp",
      "headers": {
        "Authorization": "Bearer ${MCP_TOKEN}"
      }
    }
  },
  "amp.dangerouslyAllowAll": false
}
"""
"""https://ampcode.com/manual#mcp (the settings key is amp.mcpServers, one key with a dot)"""

# Added for issue 41, each from the host's own guide or source (the URL beside it).

COPILOT_CLI = """{
  "mcpServers": {
    "fs": {
      "type": "local",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {},
      "tools": ["*"]
    },
    "web": {
      "type": "http",
      "url": "https://example.invalid/mcp",
      "headers": {
        "CONTEXT7_API_KEY": "${CONTEXT7_API_KEY}"
      },
      "tools": ["*"]
    }
  }
}
"""
"""https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers
(type local or stdio, and tools, are Copilot CLI's own)"""

ANTIGRAVITY = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {}
    },
    "web": {
      "serverUrl": "https://example.invalid/mcp",
      "headers": {
        "Authorization": "Bearer <YOUR_TOKEN>"
      },
      "disabled": true
    }
  }
}
"""
"""https://antigravity.google/docs/mcp (a remote server's address is serverUrl; the IDE adds
disabled when a server is turned off)"""

KIMI_CLI = """{
  "mcpServers": {
    "web": {
      "url": "https://example.invalid/mcp",
      "headers": {
        "CONTEXT7_API_KEY": "your-key"
      }
    },
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem"
      ],
      "env": {
        "SOME_VAR": "value"
      }
    }
  }
}"""
"""https://github.com/MoonshotAI/kimi-cli docs/en/customization/mcp.md; kimi mcp add writes the
file with json.dumps(indent=2): no newline at its end (src/kimi_cli/cli/mcp.py). Kimi Code's
``kimi migrate --run`` (2.1.0) writes these same bytes into ~/.kimi-code/mcp.json, from
JSON.stringify(..., null, 2), and leaves this file where it was."""

KIMI_CODE = """{
  "mcpServers": {
    "web": {
      "transport": "http",
      "url": "https://example.invalid/mcp",
      "bearerTokenEnvVar": "CONTEXT7_API_KEY"
    },
    "fs": {
      "transport": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem"
      ],
      "env": {
        "SOME_VAR": "value"
      },
      "startupTimeoutMs": 30000
    }
  }
}
"""
"""Kimi Code 2.1.0 (npm @moonshot-ai/kimi-code, dist/main.mjs): its config store writes
JSON.stringify({...file, mcpServers}, null, 2) and a newline; each entry a stdio, http or sse
``transport`` (McpServerStdioConfigSchema: command, args, env, cwd; http: url, headers,
bearerTokenEnvVar), with startupTimeoutMs and the like beside it."""

FACTORY_DROID = """{
  "mcpServers": {
    "fs": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {},
      "disabled": false
    },
    "web": {
      "type": "http",
      "url": "https://example.invalid/mcp",
      "headers": {
        "Authorization": "Bearer ${API_KEY}"
      },
      "disabled": false
    }
  }
}
"""
"""https://docs.factory.ai/cli/configuration/mcp (type stdio or http, disabled, disabledTools)"""

QODER = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem"
      ],
      "env": {}
    },
    "web": {
      "url": "https://example.invalid/sse"
    }
  }
}
"""
"""https://docs.qoder.com/user-guide/chat/model-context-protocol (STDIO: command and arguments;
SSE: an endpoint URL)"""

MISTRAL_VIBE = """active_model = "devstral-2"

# Example MCP server configurations
[[mcp_servers]]
name = "web"
transport = "http"
url = "https://example.invalid/mcp"
headers = { "Authorization" = "Bearer my_token" }
api_key_env = "MY_API_KEY_ENV_VAR"

[[mcp_servers]]
name = "fs"
transport = "stdio"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem"]
env = { "DEBUG" = "1", "LOG_LEVEL" = "info" }

[tools.fs_read_file]
permission = "always"
"""
"""https://github.com/mistralai/mistral-vibe README.md, "MCP Server Configuration" (v2.18.4):
an array of tables, each server naming itself"""

AMAZON_Q = """{
  "name": "default-agent",
  "description": "Default agent configuration",
  "prompt": "",
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {},
      "timeout": 60000
    },
    "web": {
      "type": "http",
      "url": "https://example.invalid/mcp",
      "headers": {}
    }
  },
  "tools": ["fs_read", "execute_bash", "@fs", "@web"],
  "allowedTools": ["fs_read", "@fs/list_allowed_directories"],
  "toolsSettings": {},
  "resources": ["file://AmazonQ.md", "file://README.md"],
  "useLegacyMcpJson": true
}
"""
"""https://docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/mcp-ide.html: what the IDE plugins
write to ~/.aws/amazonq/default.json, an agent file in the shape of
aws/amazon-q-developer-cli docs/agent-format.md (mcpServers, tools, allowedTools,
useLegacyMcpJson)"""

AMAZON_Q_LEGACY = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {},
      "timeout": 120000,
      "disabled": false
    },
    "web": {
      "type": "http",
      "url": "https://example.invalid/mcp"
    }
  }
}
"""
"""https://docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/command-line-mcp-config-CLI.html:
the older ~/.aws/amazonq/mcp.json, which Q's CLI reads and the IDE plugins still read (and
crates/chat-cli of aws/amazon-q-developer-cli)"""

WITSY = """{
  "general": {
    "locale": "en-US"
  },
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem"
      ],
      "env": {}
    }
  },
  "mcp": {
    "servers": [
      {
        "uuid": "0b5cf6a1",
        "registryId": "0b5cf6a1",
        "state": "enabled",
        "type": "stdio",
        "command": "uvx",
        "url": "mcp-server-fetch"
      }
    ],
    "mcpServersExtra": {}
  }
}
"""
"""https://github.com/nbonamy/witsy src/main/mcp.ts (3.3.1): the servers Smithery installs
with --client witsy are under mcpServers, Claude Desktop's notation; those added in Witsy's own
window are a list, mcp.servers, each with its arguments in one string (url): not read"""

LIBRECHAT = """version: 1.2.8
# Example MCP Servers Object Structure
mcpServers:
  web:
    type: sse
    url: https://example.invalid/sse
    requiresOAuth: true
    headers:
      X-User-ID: '{{LIBRECHAT_USER_ID}}'
  fs:
    type: stdio
    command: npx
    args:
      - -y
      - '@modelcontextprotocol/server-filesystem'
    serverInstructions: 'Do not access any local files or local/internal IP addresses'
"""
"""https://www.librechat.ai/docs/configuration/librechat_yaml/object_structure/mcp_servers"""

JAN = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {},
      "active": true
    },
    "web": {
      "type": "http",
      "url": "https://example.invalid/mcp",
      "command": "",
      "args": [],
      "env": {},
      "active": true
    }
  },
  "mcpSettings": {
    "toolCallTimeoutSeconds": 30
  }
}
"""
"""https://github.com/janhq/jan src-tauri/src/core/mcp/constants.rs (DEFAULT_MCP_CONFIG, the
file Jan writes on its first start)"""

BOLTAI = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem"
      ]
    }
  }
}
"""
"""https://docs.boltai.com/docs/plugins/mcp-servers: ~/.boltai/mcp.json, Claude Desktop's
notation (BoltAI imports Claude Desktop's servers), local servers only: a remote one goes
through mcp-remote, a command"""

ENCONVO = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {}
    }
  }
}
"""
"""Smithery's client list (--client enconvo): ~/.config/enconvo/mcp_config.json, Claude
Desktop's notation, stdio servers only"""

QODER_CLI = """{
  "permissions": {
    "allow": [
      "mcp__fs__list_allowed_directories"
    ],
    "deny": []
  },
  "hooks": {
    "Notification": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/notification.sh"
          }
        ]
      }
    ]
  },
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {}
    },
    "web": {
      "type": "sse",
      "url": "https://example.invalid/sse",
      "headers": {
        "Authorization": "Bearer <token>"
      }
    }
  }
}
"""
"""https://docs.qoder.com/cli/mcp-servers and cli/mcp-reference (mcpServers in settings.json;
stdio command, args, env, cwd; sse and http with url and headers), with the permissions and
hooks the same file holds (docs.qoder.com/cli/using-cli)"""

JUNIE = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {}
    },
    "web": {
      "url": "https://example.invalid/mcp",
      "headers": {
        "Authorization": "Bearer <token>"
      }
    }
  }
}
"""
"""https://www.jetbrains.com/help/junie/model-context-protocol-mcp.html and
junie.jetbrains.com/docs/junie-cli-mcp-configuration.html: no type, a command or a url"""

ROVO_DEV = """{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"],
      "env": {
        "LOG_LEVEL": "info"
      },
      "transport": "stdio"
    },
    "web": {
      "url": "https://example.invalid/mcp",
      "headers": {
        "Authorization": "Bearer <token>"
      },
      "transport": "http"
    }
  }
}
"""
"""https://support.atlassian.com/rovo/docs/connect-to-an-mcp-server-in-rovo-dev-cli/ (each
server with its transport: stdio, or http and sse with a url)"""

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
    "qwen-code": QWEN_CODE,
    "opencode": OPENCODE,
    "fast-agent": FAST_AGENT,
    "roo-code": ROO_CODE,
    "continue": CONTINUE,
    "lm-studio": LM_STUDIO,
    "kiro": KIRO,
    "amp": AMP,
    "trae": TRAE,
    "copilot-cli": COPILOT_CLI,
    "antigravity": ANTIGRAVITY,
    "kimi-cli": KIMI_CODE,
    "factory-droid": FACTORY_DROID,
    "qoder": QODER,
    "mistral-vibe": MISTRAL_VIBE,
    "amazon-q": AMAZON_Q,
    "witsy": WITSY,
    "librechat": LIBRECHAT,
    "jan": JAN,
    "boltai": BOLTAI,
    "enconvo": ENCONVO,
    "qoder-cli": QODER_CLI,
    "junie": JUNIE,
    "rovo-dev": ROVO_DEV,
}
"""A file of each host, with a stdio server ``fs`` and a remote server ``web`` (but those of
the hosts whose table of servers holds commands only: Witsy, BoltAI, Enconvo)."""

OTHERS = {"opencode": ["jira"], "fast-agent": ["fetch"], "continue": ["#3"]}
"""The entries of the samples that are neither stdio nor remote: they are listed, never edited."""

BROKEN = {
    "json": ('{\n  "mcpServers": {\n    "fs": {"command": "npx",}\n    "x": 1\n  }\n}\n', 4),
    "toml": ('[mcp_servers.fs]\ncommand = "npx"\nargs = ["-y"]\nenv = {A = }\n', 4),
    "yaml": ("extensions:\n  fs:\n    cmd: npx\n   args: [\n", 4),
}
"""A file with a syntax error for each format, and the line a reader should name."""


def claude_code_history(size: int) -> str:
    """A ``~/.claude.json`` of at least *size* characters, as Claude Code grows it: one server,
    and the history of many projects (each with its own empty table of servers), written with
    two spaces of indentation as Claude Code writes it."""
    head = (
        '{\n  "numStartups": 412,\n  "installMethod": "npm",\n  "autoUpdates": true,\n'
        '  "projects": {\n'
    )
    tail = (
        '\n  },\n  "mcpServers": {\n    "fs": {\n      "type": "stdio",\n'
        '      "command": "npx",\n      "args": [\n        "-y",\n'
        '        "@modelcontextprotocol/server-filesystem"\n      ],\n      "env": {}\n'
        '    }\n  },\n  "userID": "0123456789abcdef"\n}\n'
    )
    projects, total, n = [], len(head) + len(tail), 0
    while total < size:
        history = ",\n".join(
            f'        {{\n          "display": "in module {n}, make step {k} of the parser '
            'faster; keep the error messages as they are and add a test for each",\n'
            '          "pastedContents": {}\n        }'
            for k in range(40)
        )
        projects.append(
            f'    "/home/me/work/project-{n}": {{\n      "allowedTools": [],\n'
            f'      "history": [\n{history}\n      ],\n      "mcpServers": {{}},\n'
            '      "hasTrustDialogAccepted": true,\n      "lastCost": 0.4231\n    }'
        )
        total += len(projects[-1]) + 2
        n += 1
    return head + ",\n".join(projects) + tail
