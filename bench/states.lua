-- wrk script: GET /api/games/ID/state?seq=N for a random game of the list in $GAMES_FILE ("id events" per
-- line) and a random N in 0..events: what an analyst browsing an archive asks, mostly of games out of memory.
local games = {}
for line in io.lines(os.getenv("GAMES_FILE")) do
  local id, events = line:match("^(%x+)%s+(%d+)")
  if id then games[#games + 1] = { id, tonumber(events) } end
end
math.randomseed(tonumber(os.getenv("SEED") or "42"))
request = function()
  local g = games[math.random(1, #games)]
  return wrk.format("GET", "/api/games/" .. g[1] .. "/state?seq=" .. math.random(0, g[2]))
end
