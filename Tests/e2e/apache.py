"""A private Apache (Debian's apache2 + libapache2-mod-auth-openidc) on a free loopback port, for test_oidc_apache.py.

Apache() writes a ServerRoot of its own in a new temp folder (mode 0755: when the tests run as root, Apache's
children run as www-data and must read it), with a minimal httpd.conf: the event MPM, the modules the site needs,
mod_auth_openidc and mod_include. start(site) includes `site` as it is (the operator's config text, e.g.
docs/openid-connect.md's block with the test's URLs put in). No system service, no port 80, nothing under
/etc/apache2 is read.

What a protected app sees is the page `/private/claims.shtml`: server-side includes print every variable of the
request's environment (`<!--#printenv -->`), where mod_auth_openidc puts the claims (OIDC_CLAIM_*) and REMOTE_USER.
`claims(text)` reads those lines back into a dict.

    with Apache() as apache:     # stopped and its folder removed at the end of the block
        apache.origin            # http://127.0.0.1:<port>, known before the site text is written
        apache.start(site_text)
        apache.log()             # the tail of its error log (attach it to a failure)
"""
import html
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import requests

from ports import free_port
from stack import stop_process
from waits import wait_for

BINARY = "/usr/sbin/apache2"
MODULES = Path("/usr/lib/apache2/modules")
LOADED = ("mpm_event", "authz_core", "authz_user", "authn_core", "mime", "include", "auth_openidc")
CLAIMS_PAGE = "<!DOCTYPE html>\n<title>claims</title>\n<pre id=\"claims\"><!--#printenv --></pre>\n"


class Apache:
    """apache2 -DFOREGROUND with its own ServerRoot; `site` is included after the base config (see the module)."""

    def __init__(self, log_level="warn auth_openidc:info"):
        """Takes the port and writes the base config; start(site) adds the site and starts (the site usually names
        the origin, so it is known first)."""
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.folder = Path(tempfile.mkdtemp(prefix="frontdoor-apache-"))
        self.folder.chmod(0o755)
        htdocs = self.folder / "htdocs"
        (htdocs / "private").mkdir(parents=True)
        (htdocs / "private/claims.shtml").write_text(CLAIMS_PAGE)
        (htdocs / "loggedout.html").write_text("<!DOCTYPE html>\n<title>signed out</title>\n<p id=\"out\">signed out</p>\n")
        for path in [htdocs, htdocs / "private", *htdocs.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        (self.folder / "run").mkdir()
        (self.folder / "httpd.conf").write_text(self.base_config(htdocs, log_level))
        self.process = None
        self.stderr = None

    def base_config(self, htdocs, log_level):
        loads = "".join(f"LoadModule {name}_module {MODULES}/mod_{name}.so\n" for name in LOADED)
        user = ""
        if os.getuid() == 0:   # Apache will not serve as root: its children take Debian's web server user
            account = pwd.getpwnam("www-data")
            user = f"User {account.pw_name}\nGroup #{account.pw_gid}\n"
            os.chown(self.folder / "run", account.pw_uid, account.pw_gid)
        return (f"ServerRoot \"{self.folder}\"\nDefaultRuntimeDir \"{self.folder}/run\"\nPidFile \"{self.folder}/run/httpd.pid\"\n"
                f"Listen 127.0.0.1:{self.port}\nServerName 127.0.0.1:{self.port}\n{user}{loads}"
                f"ErrorLog \"{self.folder}/error.log\"\nLogLevel {log_level}\n"
                f"TypesConfig /dev/null\nAddType text/html .shtml .html\nAddOutputFilter INCLUDES .shtml\n"
                f"DocumentRoot \"{htdocs}\"\n<Directory \"{htdocs}\">\n    Options +Includes\n    Require all granted\n</Directory>\n"
                f"Include \"{self.folder}/site.conf\"\n")

    def start(self, site):
        """Writes `site` (included after the base config) and starts apache2 in the foreground."""
        (self.folder / "site.conf").write_text(site)
        check = subprocess.run([BINARY, "-d", str(self.folder), "-f", str(self.folder / "httpd.conf"), "-t"],
                               capture_output=True, text=True)
        assert check.returncode == 0, f"apache2 -t refused the config:\n{check.stderr}\n{self.config_text()}"
        self.stderr = open(self.folder / "stderr.log", "w")
        self.process = subprocess.Popen([BINARY, "-d", str(self.folder), "-f", str(self.folder / "httpd.conf"), "-DFOREGROUND"],
                                        stdin=subprocess.DEVNULL, stdout=self.stderr, stderr=subprocess.STDOUT)
        wait_for(lambda: self.answers() or self.process.poll() is not None, what="apache2")
        assert self.process.poll() is None, self.log()
        return self

    def answers(self):
        try:
            return requests.get(self.origin + "/loggedout.html", timeout=10).status_code == 200
        except requests.RequestException:
            return False

    def stop(self):
        if self.process:
            stop_process(self.process)   # SIGTERM: the parent stops its children and removes its pid file
            self.process = None
        if self.stderr:
            self.stderr.close()
            self.stderr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def config_text(self):
        return (self.folder / "httpd.conf").read_text() + "\n--- site.conf\n" + (self.folder / "site.conf").read_text()

    def logs(self):
        """The tails of its error log and output (stack.STACKS's failure reports call this)."""
        return self.log()

    def log(self):
        parts = []
        for name in ("error.log", "stderr.log"):
            path = self.folder / name
            if path.exists():
                parts.append(f"--- apache {name}\n" + path.read_text(errors="replace")[-6000:])
        return "\n".join(parts)


def claims(page_text: str) -> dict:
    """The NAME=value lines of the claims page (printenv's output, entities decoded) as a dict; `page_text` is the
    page's HTML (requests) or the <pre>'s text (a browser's textContent)."""
    found = {}
    inside = re.search(r'<pre id="claims">(.*?)</pre>', page_text, re.S)
    for line in html.unescape(inside.group(1) if inside else page_text).splitlines():
        name, sep, value = line.partition("=")
        if sep and name.replace("_", "").isalnum():
            found[name] = value
    return found
