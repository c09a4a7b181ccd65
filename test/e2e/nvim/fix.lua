-- Headless Neovim (0.7+) as an LSP client of rope-lens: open a config, wait for diagnostics,
-- apply the preferred quick fix, write the file, wait until the fixed finding is gone.
-- Environment: ROPE_LENS_SERVER (path of bin/rope-lens.js), ROPE_LENS_FILE (file to open),
-- ROPE_LENS_FILETYPE (the buffer's filetype, sent as the languageId; default json: `-u NONE`
-- turns filetype detection off).
-- Prints DIAG/ACTION/RESULT lines; exits 0 on success, non-zero (cquit) on failure.
local server = os.getenv('ROPE_LENS_SERVER')
local file = os.getenv('ROPE_LENS_FILE')
local filetype = os.getenv('ROPE_LENS_FILETYPE') or 'json'
local t0 = vim.loop.hrtime()

local function fail(code, msg)
  io.stdout:write('FAIL ' .. msg .. '\n')
  vim.cmd('cquit ' .. code)
end

local published = {}
local exited = false
local client_id = vim.lsp.start_client({
  name = 'rope-lens',
  cmd = { 'node', server, 'lsp', '--stdio' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
  get_language_id = function(_, ft) return ft ~= '' and ft or filetype end,
  on_exit = function() exited = true end,
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      published[#published + 1] = result
      return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
    end,
  },
})
if not client_id then fail(2, 'could not start the server') end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
vim.bo.filetype = filetype
vim.lsp.buf_attach_client(0, client_id)

-- The last published list for this buffer that satisfies `pred`.
local function wait_for(pred, what, ms)
  local found
  local ok = vim.wait(ms or 15000, function()
    if exited then return true end
    local last = published[#published]
    if last and pred(last.diagnostics) then found = last.diagnostics; return true end
    return false
  end, 20)
  if exited then fail(4, 'server exited') end
  if not ok or not found then fail(3, 'timed out waiting for ' .. what) end
  return found
end

local diags = wait_for(function(d) return #d > 0 end, 'diagnostics')
for _, d in ipairs(diags) do
  io.stdout:write(string.format('DIAG %d:%d %s %s\n', d.range.start.line, d.range.start.character, tostring(d.code), d.message))
end

-- Ask for the fixes of each diagnostic until one has a preferred quick fix. The fixes can still
-- grow for a moment (the server checks candidate bases off-thread), so retry for a while.
local client = vim.lsp.get_client_by_id(client_id)
local chosen, chosen_diag
local deadline = vim.loop.now() + 15000
while not chosen and vim.loop.now() < deadline do
  for _, d in ipairs(published[#published].diagnostics) do
    local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, range = d.range, context = { diagnostics = { d } } }
    local resp = client.request_sync('textDocument/codeAction', params, 5000, 0)
    for _, action in ipairs((resp and resp.result) or {}) do
      if action.isPreferred and not chosen then chosen = action; chosen_diag = d end
    end
    if chosen then
      for _, action in ipairs(resp.result) do
        io.stdout:write('ACTION ' .. action.title .. (action.isPreferred and ' [preferred]' or '') .. '\n')
      end
      break
    end
  end
  if not chosen then vim.wait(200) end
end
if not chosen then fail(5, 'no preferred quick fix offered') end

vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
vim.cmd('write')
io.stdout:write('APPLIED ' .. chosen.title .. '\n')

-- The server re-checks the edited buffer; the fixed finding must be gone.
wait_for(function(d)
  for _, x in ipairs(d) do
    if x.code == chosen_diag.code and x.range.start.line == chosen_diag.range.start.line then return false end
  end
  return true
end, 'the fixed finding to clear')

io.stdout:write(string.format('PASS in %d ms\n', (vim.loop.hrtime() - t0) / 1e6))
client.stop()
vim.cmd('qall!')
