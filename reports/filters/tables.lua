-- tables.lua: set table header cells in bold, in table-header-text-color
-- (the colour band itself comes from the template).  Works on the AST, so the
-- cell text stays escaped by pandoc; only the fixed wrapper below is raw.
if not FORMAT:match('latex') then return {} end

local function style(block)
  if block.t == 'Plain' or block.t == 'Para' then
    block.content = {
      pandoc.RawInline('latex', '\\hspace{0pt}\\textcolor{wsTableHeadText}{'),  -- \hspace: the first word may hyphenate too
      pandoc.Strong(block.content),
      pandoc.RawInline('latex', '}'),
    }
  end
  return block
end

function Table(tbl)
  for _, row in ipairs(tbl.head.rows) do
    for _, cell in ipairs(row.cells) do
      cell.contents = cell.contents:map(style)
    end
  end
  return tbl
end

-- "::: table-scriptsize" divs (tables of many columns): the table is set in
-- that type size, so numbers fit their columns.
local SIZES = { ['table-scriptsize'] = 'scriptsize' }  -- 7 pt, the smallest a table is set in

function Div(div)
  for class, size in pairs(SIZES) do
    if div.classes:includes(class) then
      local out = pandoc.Blocks { pandoc.RawBlock('latex', '\\begingroup\\renewcommand{\\wsTableFont}{\\' .. size .. '}') }
      out:extend(div.content)
      out:insert(pandoc.RawBlock('latex', '\\endgroup'))
      return out
    end
  end
  return nil
end
