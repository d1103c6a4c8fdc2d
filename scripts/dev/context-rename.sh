#!/bin/sh
# context-rename.sh: the mechanical half of issue 26's slim RequestContext, re-runnable over any version of the files.
#
# Run from the repository root: scripts/dev/context-rename.sh. Idempotent: a second run changes nothing.
# What it rewrites (Sources/WebFront, Tests/WebFrontTests; the last rule also Sources/frontdoor):
#   context.setFlash(x) / takeFlash()      -> context.flash.set(x) / flash.take()          (Flash.swift: FlashMessages)
#   context.verifyCSRF() / csrfToken()     -> context.csrf.verify() / csrf.token()          (CSRF.swift: CSRFGuard)
#   context.setCookie(…) / queueCookie(…)  -> context.cookies.set(…) / cookies.queue(…)     (HTTP/CookieJar.swift)
#   outgoingCookies                        -> cookies.outgoing
#   context.page(…) / settingsPage(…)      -> context.layout.page(…) / layout.settingsPage(…) (Rendering/PageLayout.swift)
#   context.apiFields() / apiBody() / apiCall / requireAPISession() / userResponse(…) / apiToken / hasAPICredentials
#                                          -> context.api.fields() / body() / call / requireSession() / … / token / hasCredentials
#   RequestContext.fields(of:) / snakeCase / timestamp -> APIContext.… (also in fuzz/)      (API/APIContext.swift)
#   site.services.X inside `extension RequestContext` files -> core.X (the operations the request's own state needs)
#   context.site.services.X in a page/action/API struct (also through `let services = context.site.services`) -> X, a stored property of that struct, declared in a generated
#     block ("Core operations this page uses", rewritten on every run) whose init takes AccountServices; Routes.swift then builds it as Name(core)
#   <app>.site.services (Sources/frontdoor) -> <app>.services (the account operations are the app's, not the site's)
set -eu
cd "$(dirname "$0")/../.."

files=$(find Sources/WebFront Tests/WebFrontTests fuzz/Sources -name '*.swift' | sort)

# 1. Plain renames (a declaration `func name(` is left alone; `(?<![\w])` skips `x.csrf.verify()` etc.).
for f in $files; do
    perl -0pi -e '
        s/(?<![\w])(?<!func )setFlash\(/flash.set(/g;
        s/(?<![\w])(?<!func )takeFlash\(\)/flash.take()/g;
        s/(?<![\w])(?<!func )verifyCSRF\(\)/csrf.verify()/g;
        s/(?<![\w])(?<!func )csrfToken\(\)/csrf.token()/g;
        s/(?<![\w])(?<!func )queueCookie\(/cookies.queue(/g;
        s/(?<![\w])(?<!func )setCookie\(/cookies.set(/g;
        s/(?<![\w.])outgoingCookies\b/cookies.outgoing/g;
        s/\bcontext\.outgoingCookies\b/context.cookies.outgoing/g;
        s/\bcontext\.page\(/context.layout.page(/g;
        s/\bcontext\.settingsPage\(/context.layout.settingsPage(/g;
        s/\bcontext\.apiBody\(/context.api.body(/g;
        s/\bcontext\.apiFields\(/context.api.fields(/g;
        s/\bcontext\.apiCall\b/context.api.call/g;
        s/\bcontext\.requireAPISession\(/context.api.requireSession(/g;
        s/\bcontext\.userResponse\(/context.api.userResponse(/g;
        s/\bcontext\.apiToken\b/context.api.token/g;
        s/\bcontext\.hasAPICredentials\b/context.api.hasCredentials/g;
        s/\bRequestContext\.(fields\(of:|snakeCase\(|timestamp\()/APIContext.$1/g;
        s{/setFlash\\\(Flash}{/flash\\.set\\(Flash}g;
    ' "$f"
done

# 2. RequestContext's own extensions reach the account operations through `core`.
for f in $(grep -l '^extension RequestContext' $files || true); do
    perl -pi -e 's/(?<![\w.])site\.services\./core./g' "$f"
done

# 3. Pages get their core operations at construction.
types=$(perl -ne 'print "$1=$2\n" if /^\s*public let (\w+): (.+?)\s*$/' Sources/AccountCore/AccountServices.swift)
built=""
plain=""
for f in $(find Sources/WebFront -name '*.swift' | sort); do
    TYPES="$types" perl -e '
        my %type = map { split /=/, $_, 2 } split /\n/, $ENV{TYPES};
        local $/; my $text = <>;
        my @lines = split /\n/, $text, -1;
        my (@out, @structs);
        # Find top-level structs and their extent.
        for (my $i = 0; $i < @lines; $i++) {
            next unless $lines[$i] =~ /^(?:public )?struct (\w+)\b[^{]*\{\s*$/;
            my $name = $1; my $end = $i;
            $end++ while $end < $#lines && $lines[$end] !~ /^\}/;
            push @structs, [$name, $i, $end];
        }
        my $marker = "    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).";
        for my $s (reverse @structs) {
            my ($name, $start, $end) = @$s;
            my @body = @lines[$start + 1 .. $end - 1];
            my %used;
            # An existing block: read its names, then drop it.
            if (@body && $body[0] =~ /^    \/\/ Core operations this page uses/) {
                my $k = 1;
                $k++ while $k < @body && $body[$k] =~ /^    \/\//;
                while ($k < @body && $body[$k] =~ /^    let (\w+): /) { $used{$1} = 1; $k++ }
                if ($k < @body && $body[$k] =~ /^    init\(_ core: AccountServices\) \{(.*)$/) {
                    if ($1 !~ /\}\s*$/) { $k++ while $k < @body && $body[$k] ne "    }" }
                    $k++;
                }
                splice @body, 0, $k;
            }
            # `let services = context.site.services` then `services.X`: the same uses, spelled out.
            my @aliases = map { /^\s*let (\w+) = context\.site\.services\s*$/ ? $1 : () } @body;
            @body = grep { !/^\s*let \w+ = context\.site\.services\s*$/ } @body;
            for my $a (@aliases) {
                s/(?<![\w.])$a\.(\w+)\b/exists $type{$1} ? "context.site.services.$1" : "$a.$1"/ge for @body;
            }
            # `let invitations = context.site.services.invitations`: the property itself.
            @body = grep { !(/^\s*let (\w+) = (?:context\.site\.services|self)\.(\w+)\s*$/ && $1 eq $2 && exists $type{$1}) } @body;
            my $uses = join("\n", @body);
            $used{$1} = 1 while $uses =~ /\bcontext\.site\.services\.(\w+)/g;
            unless (%used) { print STDERR "PLAIN $name\n"; next }
            my @names = sort keys %used;
            my $joined = join("\n", @body);
            for my $n (@names) {
                die "unknown service $n\n" unless $type{$n};
                # A local of the same name would shadow the property: say self. there.
                my $shadowed = $joined =~ /\b(?:let|var)\s+$n\b|\b$n\s+in\b|\(\s*$n\s*:/;
                my $to = $shadowed ? "self.$n" : $n;
                s/(?<![\w.])self\.$n\b/$n/g for $shadowed ? () : @body;
                s/\bcontext\.site\.services\.$n\b/$to/g for @body;
            }
            my @block = ($marker);
            push @block, map { "    let $_: $type{$_}" } @names;
            my $one = @names == 1 ? "$names[0] = core.$names[0]"
                : "(" . join(", ", @names) . ") = (" . join(", ", map { "core.$_" } @names) . ")";
            if (length("    init(_ core: AccountServices) { $one }") <= 150) {
                push @block, "    init(_ core: AccountServices) { $one }";
            } else {
                push @block, "    init(_ core: AccountServices) {", (map { "        $_ = core.$_" } @names), "    }";
            }
            push @block, "";
            pop @block if @body && $body[0] eq "";
            splice @lines, $start + 1, $end - $start - 1, @block, @body;
            print STDERR "BUILT $name\n";
        }
        # The block names AccountCore types.
        if (@structs && !grep({ $_ eq "import AccountCore" } @lines) && grep({ /^    init\(_ core: AccountServices\) \{/ } @lines)) {
            my ($first) = grep { $lines[$_] =~ /^import / } 0 .. $#lines;
            # No import at all (after the header comment then).
            ($first) = grep { $lines[$_] !~ m{^//} } 0 .. $#lines unless defined $first;
            splice @lines, $first, 0, "import AccountCore";
        }
        print STDOUT join("\n", @lines);
    ' "$f" >"$f.new" 2>"$f.built" || { cat "$f.built" >&2; rm -f "$f.built" "$f.new"; exit 1; }
    if cmp -s "$f" "$f.new"; then rm "$f.new"; else mv "$f.new" "$f"; fi
    built="$built $(sed -n 's/^BUILT //p' "$f.built")"
    plain="$plain $(sed -n 's/^PLAIN //p' "$f.built")"
    rm -f "$f.built"
done

# Routes.swift builds each such struct with the core operations (and one that no longer uses any without).
for name in $plain; do
    perl -pi -e "s/\\b${name}\\(core\\)/${name}()/g" Sources/WebFront/Routes.swift
done
# Routes.swift builds each such struct with the core operations.
for name in $built; do
    perl -pi -e "s/\\b${name}\\(\\)/${name}(core)/g" Sources/WebFront/Routes.swift
done

# 4. The command-line tool asks the app, not its site, for the account operations.
for f in $(grep -l 'site\.services' Sources/frontdoor/*.swift || true); do
    perl -pi -e 's/\.site\.services\b/.services/g' "$f"
done
