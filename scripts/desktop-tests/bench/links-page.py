#!/usr/bin/env python3
"""links-page.py [SECTIONS] [LINKS] > page.html: the web benchmark's page (BENCHMARKS.md "Web"):
a header with three links, then SECTIONS sections (default 50), each a heading and a list of LINKS
links (default 100): 5,000 links in 50 sections."""
import sys
sections = int(sys.argv[1]) if len(sys.argv) > 1 else 50
links = int(sys.argv[2]) if len(sys.argv) > 2 else 100
out = ['<!doctype html>', '<html lang="en">', '<head><meta charset="utf-8"><title>%d links</title>' % (sections * links),
       '<style>body{font:14px sans-serif;margin:8px} ul{columns:4} li{margin:1px 0}</style></head>', '<body>',
       '<header><h1>%d links in %d sections</h1><nav aria-label="Top"><a href="#s1">First</a> <a href="#s%d">Last</a> <a href="#end">End</a></nav></header>'
       % (sections * links, sections, sections), '<main>']
for s in range(1, sections + 1):
    out.append('<section id="s%d" aria-labelledby="h%d"><h2 id="h%d">Section %d</h2><ul>' % (s, s, s, s))
    out += ['<li><a href="#s%d-%d">Link %d.%d</a></li>' % (s, k, s, k) for k in range(1, links + 1)]
    out.append('</ul></section>')
out += ['</main>', '<footer id="end"><a href="#top">Top</a></footer>', '</body>', '</html>', '']
sys.stdout.write('\n'.join(out))
