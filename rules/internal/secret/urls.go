package secret

import (
	"strings"
)

// Secrets inside URLs and connection strings: webhook URLs whose path is
// the secret (Slack, Discord), and passwords in the user part of a URL
// (postgres://user:password@host/db) or in a connection string's
// Password= field. Each scan reads the text once.

// webhookURL reports whether s holds a webhook URL whose path is a secret:
// anyone who has it can post to the channel.
func webhookURL(s string) (what string, ok bool) {
	if slackWebhook(s) {
		return "a Slack webhook URL", true
	}
	if discordWebhook(s) {
		return "a Discord webhook URL", true
	}
	return "", false
}

// slackWebhook: hooks.slack.com/services/T<team>/B<hook>/<secret of 24>,
// and the workflow and trigger URLs, whose last part is the secret too.
func slackWebhook(s string) bool {
	const host = "hooks.slack.com/"
	for i := 0; ; {
		j := strings.Index(s[i:], host)
		if j < 0 {
			return false
		}
		start := i + j + len(host)
		end := start
		for end < len(s) && (isAlnum(s[end]) || s[end] == '/') {
			end++
		}
		i = end
		parts := strings.Split(s[start:end], "/")
		if len(parts) < 4 {
			continue
		}
		switch parts[0] {
		case "services", "workflows", "triggers":
		default:
			continue
		}
		team, secret := parts[1], parts[len(parts)-1]
		if len(team) < 8 || team[0] != 'T' || PlaceholderToken(team[1:]) {
			continue
		}
		if len(secret) >= 20 && mixedToken(secret) && !PlaceholderToken(secret) {
			return true
		}
	}
}

// discordWebhook: discord.com/api/webhooks/<id>/<token of 60 or more>.
func discordWebhook(s string) bool {
	for _, host := range []string{"discord.com/api/webhooks/", "discordapp.com/api/webhooks/"} {
		for i := 0; ; {
			j := strings.Index(s[i:], host)
			if j < 0 {
				break
			}
			start := i + j + len(host)
			id := start
			for id < len(s) && isDigit(s[id]) {
				id++
			}
			i = id
			if id-start < 17 || id >= len(s) || s[id] != '/' {
				continue
			}
			end := id + 1
			for end < len(s) && isURLBase64(s[end]) {
				end++
			}
			i = end
			if tok := s[id+1 : end]; len(tok) >= 60 && mixedToken(tok) && !PlaceholderToken(tok) {
				return true
			}
		}
	}
	return false
}

// credentialSchemes are the URL schemes whose user part may carry a
// password, named for the message.
var credentialSchemes = map[string]string{
	"postgres": "PostgreSQL", "postgresql": "PostgreSQL", "mysql": "MySQL", "mysql2": "MySQL",
	"mariadb": "MariaDB", "mongodb": "MongoDB", "mongodb+srv": "MongoDB", "redis": "Redis",
	"rediss": "Redis", "amqp": "AMQP", "amqps": "AMQP", "mssql": "SQL Server",
	"sqlserver": "SQL Server", "cockroachdb": "CockroachDB", "clickhouse": "ClickHouse",
	"neo4j": "Neo4j", "neo4j+s": "Neo4j", "bolt": "Neo4j", "couchbase": "Couchbase",
	"couchbases": "Couchbase", "nats": "NATS", "memcached": "Memcached", "ldap": "LDAP",
	"ldaps": "LDAP", "smtp": "SMTP", "smtps": "SMTP", "ftp": "FTP", "ftps": "FTP",
	"sftp": "SFTP", "http": "HTTP", "https": "HTTPS", "git+https": "HTTPS",
	"jdbc:postgresql": "PostgreSQL", "jdbc:mysql": "MySQL", "cloudinary": "Cloudinary",
}

// CredentialURL reports whether s holds a URL with a password that is not
// a placeholder, for a host that is not local or a documentation example:
// scheme://user:password@host, or a password field of a connection string
// (Password=...; in SQL Server's, password=... in a URL's query). Loopback
// hosts (localhost, 127.0.0.1, ::1, host.docker.internal) are where
// development databases with throwaway passwords run: not reported.
func CredentialURL(s string) (what string, ok bool) {
	for i := 0; ; {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			break
		}
		sep := i + j
		i = sep + 3
		b := sep
		for b > 0 && sep-b < 20 && (isAlnum(s[b-1]) || s[b-1] == '+' || s[b-1] == '.' || s[b-1] == '-' || s[b-1] == ':') {
			b--
		}
		scheme := strings.ToLower(s[b:sep])
		kind, known := credentialSchemes[scheme]
		if k := strings.LastIndexByte(scheme, ':'); !known && k >= 0 {
			kind, known = credentialSchemes[scheme[k+1:]] // url:https://...
		}
		if !known {
			continue
		}
		end := i
		for end < len(s) && !strings.ContainsRune("/?#\"'` \t\r\n", rune(s[end])) {
			end++
		}
		authority := s[i:end]
		i = end
		at := strings.LastIndexByte(authority, '@')
		if at < 0 {
			// The rest of the URL, up to a space or a quote, may hold a
			// password parameter (JDBC's ?password=). The next URL is
			// searched after it, so that each byte is read once.
			urlEnd := end
			for urlEnd < len(s) && !strings.ContainsRune("\"'` \t\r\n", rune(s[urlEnd])) {
				urlEnd++
			}
			i = urlEnd
			if pw, ok := passwordParam(s[end:urlEnd]); ok && !passwordPlaceholder(pw, "") && !localHost(authority) {
				return "a " + kind + " URL with a password", true
			}
			continue
		}
		user, pw, hasPW := strings.Cut(authority[:at], ":")
		if !hasPW || passwordPlaceholder(pw, user) || localHost(authority[at+1:]) {
			continue
		}
		return "a " + kind + " URL with a password", true
	}
	if pw, ok := passwordParam(s); ok && !passwordPlaceholder(pw, "") && !localServer(s) {
		return "a connection string with a password", true
	}
	return "", false
}

// passwordParam finds a password field in a connection string or a URL's
// query: Password=..., Pwd=..., password=... after the start, ';', '?',
// '&' or a space, up to the next ';', '&' or space.
func passwordParam(s string) (string, bool) {
	l := strings.ToLower(s)
	for _, name := range []string{"password=", "pwd=", "passwd="} {
		for i := 0; ; {
			j := strings.Index(l[i:], name)
			if j < 0 {
				break
			}
			start := i + j
			i = start + len(name)
			if start > 0 && !strings.ContainsRune(";?& \t", rune(l[start-1])) {
				continue
			}
			end := i
			for end < len(s) && !strings.ContainsRune(";& \t\r\n\"'`", rune(s[end])) {
				end++
			}
			if end > i {
				return s[i:end], true
			}
		}
	}
	return "", false
}

// passwordWords are the passwords of documentation and of local defaults.
var passwordWords = map[string]bool{
	"pass": true, "password": true, "passwd": true, "pwd": true, "pw": true, "secret": true,
	"changeme": true, "change_me": true, "admin": true, "root": true, "test": true, "guest": true,
	"postgres": true, "mysql": true, "redis": true, "mongo": true, "mongodb": true, "rabbitmq": true,
	"user": true, "username": true, "default": true, "demo": true, "example": true, "sample": true,
	"dummy": true, "mypassword": true, "mypass": true, "yourpassword": true, "letmein": true,
}

// passwordPlaceholder reports whether a password of a URL or connection
// string is a stand-in: empty, a variable (${DB_PASSWORD}, $PASS,
// %PASS%), a template (<password>, {{pass}}, [password]), a word of
// documentation or a local default, the user name again, shorter than 4
// characters, words rather than generated characters (PASSWORD, DB_PASS,
// letmein), or a placeholder by Placeholder's rules.
func passwordPlaceholder(pw, user string) bool {
	if len(pw) < 4 || strings.ContainsAny(pw[:1], "$%<{[*") || strings.Contains(pw, "${") {
		return true
	}
	l := strings.ToLower(pw)
	if passwordWords[l] || strings.EqualFold(pw, user) {
		return true
	}
	for _, w := range []string{"pass", "pwd", "secret", "your", "example", "placeholder", "changeme", "xxx", "..."} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return Placeholder(pw) && len(pw) >= 8 || humanWords(pw) || PlaceholderToken(pw)
}

// localHost reports whether the host part of a URL's authority (host,
// host:port, or a list of them) is a loopback host.
func localHost(hostport string) bool {
	if strings.HasPrefix(hostport, "[") { // [::1]:5432
		end := strings.IndexByte(hostport, ']')
		return end > 0 && hostport[1:end] == "::1"
	}
	host, _, _ := strings.Cut(hostport, ",")
	host, _, _ = strings.Cut(host, ":")
	host = strings.ToLower(host)
	switch {
	case host == "localhost", strings.HasSuffix(host, ".localhost"), host == "0.0.0.0",
		strings.HasPrefix(host, "127."), host == "host.docker.internal":
		return true
	case host == "example.com", host == "example.org", host == "example.net",
		strings.HasSuffix(host, ".example.com"), strings.HasSuffix(host, ".example.org"),
		strings.HasSuffix(host, ".example.net"), strings.HasSuffix(host, ".example"),
		strings.HasSuffix(host, ".test"), strings.HasSuffix(host, ".invalid"):
		// RFC 2606's names for documentation and tests.
		return true
	}
	return false
}

// localServer reports whether a connection string of Key=Value; fields
// names a local server (Server=localhost, Host=127.0.0.1, Data
// Source=(local)).
func localServer(s string) bool {
	for _, field := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(field, "=")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "server", "host", "data source", "address", "addr", "hostname":
			v = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), "tcp:"))
			if v == "." || strings.EqualFold(v, "(local)") || localHost(v) {
				return true
			}
		}
	}
	return false
}
