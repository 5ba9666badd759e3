-- wrk script: GET /api/games/$GAME/state?turn=N for random N in 0..$TURNS
local game = os.getenv("GAME")
local turns = tonumber(os.getenv("TURNS") or "100")
math.randomseed(42)
request = function()
  return wrk.format("GET", "/api/games/" .. game .. "/state?turn=" .. math.random(0, turns))
end
