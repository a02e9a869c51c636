-- landscape.lua: "::: landscape" fenced divs are set on rotated pages
-- (pdflscape), for tables too wide for portrait.  Other formats: unchanged.
if not FORMAT:match('latex') then return {} end

function Div(div)
  if not div.classes:includes('landscape') then return nil end
  local out = pandoc.Blocks { pandoc.RawBlock('latex', '\\begin{landscape}') }
  out:extend(div.content)
  out:insert(pandoc.RawBlock('latex', '\\end{landscape}'))
  return out
end
