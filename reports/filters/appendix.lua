-- appendix.lua: start the appendices (LaTeX \appendix: sections lettered A, B, ...)
-- at a "::: appendix" fenced div or at the first heading with class .appendix.
if not FORMAT:match('latex') then return {} end

local started = false
local function start()
  if started then return {} end
  started = true
  return { pandoc.RawBlock('latex', '\\appendix') }
end

function Div(div)
  if not div.classes:includes('appendix') then return nil end
  local out = pandoc.Blocks(start())
  out:extend(div.content)
  return out
end

function Header(h)
  if not h.classes:includes('appendix') then return nil end
  local out = pandoc.Blocks(start())
  out:insert(h)
  return out
end
