-- Independent check: a raw Lua table written by voxkit, loaded by lua5.4 and read through
-- the IndexRawChunkData helper taken from the Scrap Mechanic seed document itself, gives
-- the material and density of the binary chunk at every voxel.
-- Usage: lua5.4 sm_lua_check.lua SEED_FILE TABLE.lua CHUNK.bin
local seed_path, table_path, bin_path = arg[1], arg[2], arg[3]

-- The helper reads its axis size from the game's constants table: supply it.
sm = { voxelTerrain = { constants = { voxelsPerChunkAxis = 17 } } }

local seed = assert(io.open(seed_path, "r")):read("a")
local helper = seed:match("(local constants = .-\nend)")
assert(helper, "IndexRawChunkData not found in " .. seed_path)
assert(load(helper, "IndexRawChunkData"))()
assert(type(IndexRawChunkData) == "function")

local data = dofile(table_path)
assert(type(data) == "table", "the Lua file does not return a table")
assert(#data == 9826, "table has " .. #data .. " elements, expected 9826")
local bin = assert(io.open(bin_path, "rb")):read("a")
assert(#bin == 4913, "binary chunk has " .. #bin .. " bytes")

local checked, bad = 0, 0
for x = 0, 16 do
  for y = 0, 16 do
    for z = 0, 16 do
      local byte = bin:byte(z + 17 * y + 289 * x + 1)
      local material, density = IndexRawChunkData(data, x, y, z)
      if material ~= byte >> 6 or density ~= byte & 63 or math.type(material) ~= "integer" then
        if bad < 5 then
          print(string.format("voxel (%d,%d,%d): Lua %s,%s, binary %d,%d", x, y, z,
            tostring(material), tostring(density), byte >> 6, byte & 63))
        end
        bad = bad + 1
      end
      checked = checked + 1
    end
  end
end
print(string.format("%d of %d voxels agree", checked - bad, checked))
os.exit(bad == 0 and 0 or 1)
