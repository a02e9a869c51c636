-- meta.lua: check the style metadata before it reaches LaTeX, and turn the
-- logo path into an image so pandoc resolves it (resource path, media bag).
-- Style values land in LaTeX argument positions, so they are whitelisted here
-- even though pandoc escapes them; a bad value stops the build with a message.

local stringify = pandoc.utils.stringify

local checks = {
  hex    = { '^%x%x%x%x%x%x$', 'a 6-digit hex colour such as 14365A' },
  length = { '^%d+%.?%d*[a-z][a-z]$', 'a TeX length such as 25mm' },
  number = { '^%d+%.?%d*$', 'a number such as 1.1' },
  font   = { '^[%w][%w %-]*$', 'a font name (letters, digits, spaces, -)' },
  size   = { '^%a+$', 'a size name such as small' },
  place  = { '^[!htbpH]+$', 'LaTeX float placement such as H or htbp' },
  lang   = { '^%a%a%a?[%-%w]*$', 'a BCP 47 language tag such as en-GB' },
  paper  = { '^%a+%d?$', 'a paper size such as a4 or letter' },
}
local kinds = {
  ['page-size'] = 'paper', ['font-size'] = 'length', ['line-stretch'] = 'number',
  ['page-margin-x'] = 'length', ['page-margin-top'] = 'length',
  ['page-margin-bottom'] = 'length', ['titlepage-logo-width'] = 'length',
  ['toc-depth'] = 'number', ['heading-keep-lines'] = 'number', ['figure-placement'] = 'place',
  ['lang'] = 'lang', ['table-font-size'] = 'size',
  ['font-main'] = 'font', ['font-sans'] = 'font', ['font-mono'] = 'font',
  ['font-symbols'] = 'font',
}
local sizes = { tiny = true, scriptsize = true, footnotesize = true,
  small = true, normalsize = true, large = true }

local function fail(key, value, want)
  error(('wirespeed: metadata %s = %q is not %s'):format(key, value, want), 0)
end

function Meta(meta)
  if not meta['wirespeed-defaults'] then
    error('wirespeed: pass --metadata-file reports/defaults.yaml', 0)
  end
  for key, value in pairs(meta) do
    local kind = kinds[key] or (key:match('color$') and 'hex')
    if kind then
      local s = stringify(value)
      local pat, want = table.unpack(checks[kind])
      if not s:match(pat) then fail(key, s, want) end
      if key == 'table-font-size' and not sizes[s] then fail(key, s, 'a size name') end
    end
  end
  if meta['titlepage-logo'] then
    local path = stringify(meta['titlepage-logo'])
    local width = stringify(meta['titlepage-logo-width'] or '30mm')
    meta['titlepage-logo'] = pandoc.MetaInlines {
      pandoc.Image({}, path, '', pandoc.Attr('', {}, { width = width })) }
  end
  return meta
end

-- Tell the template whether the lists of tables/figures would have entries
-- (pandoc's own "tables"/"graphics" flags also count uncaptioned tables, logos).
function Pandoc(doc)
  local tables, figures = false, false
  doc.blocks:walk {
    Table = function(t) tables = tables or #t.caption.long > 0 end,
    Figure = function(f) figures = figures or #f.caption.long > 0 end,
  }
  doc.meta['has-captioned-tables'] = tables
  doc.meta['has-captioned-figures'] = figures
  return doc
end
