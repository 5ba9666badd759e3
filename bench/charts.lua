-- wrk script: the charts of $GAME in turn ($CHARTS: their names, comma-separated, as the replay page lists them)
local game = os.getenv("GAME")
local charts = {}
for name in string.gmatch(os.getenv("CHARTS") or "vp", "[^,]+") do
  table.insert(charts, name)
end
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/api/games/" .. game .. "/charts/" .. charts[(i % #charts) + 1] .. ".svg")
end
