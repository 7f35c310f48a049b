-- Neovim's built-in LSP client against `fwmigrate lsp`, headless, in the
-- 0.7 form (vim.lsp.start_client and vim.lsp.buf_attach_client; 0.8 and
-- later also have vim.lsp.start). TestNeovim runs it:
--   FWMIGRATE=<binary> FILE=<config> OUT=<file> nvim --headless --clean -c 'luafile nvim.lua'
-- It writes one line per diagnostic (line:column code severity message,
-- byte columns as Neovim converts the server's UTF-16 ones), then the
-- titles of the code actions at the first diagnostic with a fix.
local bin, file, out = os.getenv('FWMIGRATE'), os.getenv('FILE'), os.getenv('OUT')
local lines = {}
local function finish(msg)
  if msg then table.insert(lines, 'ERROR ' .. msg) end
  vim.fn.writefile(lines, out)
  vim.cmd('qa!')
end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = 'fwmigrate',
  cmd = { bin, 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':p:h'),
})
if not id then return finish('the client did not start') end
vim.lsp.buf_attach_client(buf, id)

if not vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
  return finish('no diagnostics within 30 s')
end
local diags = vim.diagnostic.get(buf)
table.sort(diags, function(a, b)
  if a.lnum ~= b.lnum then return a.lnum < b.lnum end
  return tostring(a.code) < tostring(b.code)
end)
local fixable
for _, d in ipairs(diags) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
  local msg = d.message:gsub('\n.*', '')
  table.insert(lines, string.format('%d:%d %s %s %s', d.lnum + 1, d.col + 1, code, vim.diagnostic.severity[d.severity], msg))
  if code == 'FW107' then fixable = d end
end

if fixable then
  local pos = { line = fixable.lnum, character = 0 }
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = pos, ['end'] = { line = fixable.end_lnum, character = 80 } },
    context = { diagnostics = {} },
  }
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000) or {}
  for _, r in pairs(res) do
    for _, a in ipairs(r.result or {}) do
      table.insert(lines, 'action: ' .. a.title .. (a.isPreferred and ' [preferred]' or ''))
    end
  end
end

vim.lsp.stop_client(id)
vim.wait(10000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
finish()
