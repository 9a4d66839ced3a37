import { detectBlueprint } from './src/pipeline/detect/index.ts';
for (const dir of process.argv.slice(2)) {
  try {
    const bp = await detectBlueprint(dir);
    console.log(`== ${dir}: ${bp.framework} ${bp.kind} app=${bp.appDir} out=${bp.outputDir} build=${bp.build?.join(' ')}`);
    for (const d of bp.decisions) if (['framework','outputDir','build','deployConfig','app','ignored'].includes(d.field)) console.log(`   ${d.field}=${d.value} [${d.file}] ${d.rule}`);
  } catch (e) { console.log(`== ${dir}: ERROR ${(e as Error).message}`); }
}
