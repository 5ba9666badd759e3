-- wrk script: the four charts of $GAME in turn
local game = os.getenv("GAME")
local charts = {"vp", "production", "trades", "dice"}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/api/games/" .. game .. "/charts/" .. charts[(i % 4) + 1] .. ".svg")
end
