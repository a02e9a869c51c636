-- boxes.lua: "::: findings" fenced divs become the template's wsfindings box.
-- An optional title attribute (::: {.findings title="Verdict"}) replaces the
-- default metadata findings-title; it is escaped by pandoc's LaTeX writer.
if not FORMAT:match('latex') then return {} end

local function latex_escape(text)
  local doc = pandoc.Pandoc { pandoc.Plain { pandoc.Str(text) } }
  return (pandoc.write(doc, 'latex'):gsub('%s+$', ''))
end

function Div(div)
  if not div.classes:includes('findings') then return nil end
  local title = div.attributes.title
  title = title and latex_escape(title) or '\\wsFindingsTitle'
  local out = pandoc.Blocks { pandoc.RawBlock('latex', '\\begin{wsfindings}{' .. title .. '}') }
  out:extend(div.content)
  out:insert(pandoc.RawBlock('latex', '\\end{wsfindings}'))
  return out
end
